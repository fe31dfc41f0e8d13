//! A form whose code is fetched when it is wanted (behind a split point `app.rs` provides) and
//! drawn once it is there: a skeleton meanwhile, and what is missing if it cannot be fetched.

use futures::future::BoxFuture;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

use super::page_not_loaded::PageNotLoaded;
use super::skeleton::Skeleton;

/// A form on its way: its code fetched (a split point's call), then built.
pub type FetchedContent = BoxFuture<'static, Result<AnyView, SplitLoaderError>>;

pub fn fetched(loading: FetchedContent, skeleton_lines: usize) -> impl IntoView {
    let content = Suspend::new(async move {
        match loading.await {
            Ok(content) => content,
            Err(_) => view! { <PageNotLoaded what="This form"/> }.into_any(),
        }
    });
    view! { <Suspense fallback=move || view! { <Skeleton lines=skeleton_lines/> }>{content}</Suspense> }
}
