use std::sync::Arc;

use futures::future::{BoxFuture, FutureExt};
use leptos::prelude::*;

use super::error_notice::ErrorNotice;
use super::skeleton::Skeleton;
use crate::api::connection::Connection;
use crate::api::session::Session;
use crate::api::ApiError;

/// Shows a resource: a skeleton on first load, the last content while it refreshes (no flicker
/// when polling), and a notice with "Try again" when it fails; fetched again when the API comes
/// back after being unreachable, and after signing in again.
///
/// Only the read and the render are generic: the frame around them (`shown`) is compiled once
/// rather than once per call, which is most of its code (the framework's suspense, transition
/// and error boundary instantiated for each resource's type and view).
pub fn loaded<T, V>(
    resource: LocalResource<Result<T, ApiError>>,
    skeleton_lines: usize,
    render: impl Fn(T) -> V + Clone + Send + Sync + 'static,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let read = move || {
        let render = render.clone();
        async move { resource.await.map(|value| render(value).into_any()) }.boxed()
    };
    shown(
        Callback::new(move |()| resource.refetch()),
        Callback::new(move |()| resource.with_untracked(|value| matches!(value, Some(Err(_))))),
        skeleton_lines,
        Arc::new(read),
    )
}

/// What a resource's read gives to show: its view, or why not.
type Read = Arc<dyn Fn() -> BoxFuture<'static, Result<AnyView, ApiError>> + Send + Sync>;

/// `last_failed`: whether the last read failed.
fn shown(
    refetch: Callback<()>,
    last_failed: Callback<(), bool>,
    skeleton_lines: usize,
    read: Read,
) -> AnyView {
    // When the API answers again after being unreachable, show what it says now.
    if let Some(connection) = use_context::<Connection>() {
        Effect::new(move |seen: Option<u32>| {
            let restored = connection.restored();
            if seen.is_some_and(|seen| seen != restored) {
                refetch.run(());
            }
            restored
        });
    }
    // A page that stays while a new token is handed over (embedded) reads again once it is;
    // one that stayed while the person signed in again reads again what failed meanwhile (what
    // did not is kept, and any form built from it with what is typed in it).
    if let Some(session) = use_context::<Session>() {
        Effect::new(move |was: Option<(bool, u32)>| {
            let now = (session.is_signed_in(), session.resumed());
            if let Some((signed_in, resumed)) = was {
                if (!signed_in && now.0) || (resumed != now.1 && last_failed.run(())) {
                    refetch.run(());
                }
            }
            now
        });
    }
    view! {
        <Transition fallback=move || view! { <Skeleton lines=skeleton_lines/> }>
            <ErrorBoundary fallback=move |errors| view! {
                <ErrorNotice errors on_retry=Callback::new(move |_| refetch.run(()))/>
            }>
                {
                    let read = read.clone();
                    move || {
                        let read = read();
                        Suspend::new(async move {
                            read.await.unwrap_or_else(|error| failed(error, refetch))
                        })
                    }
                }
            </ErrorBoundary>
        </Transition>
    }
    .into_any()
}

/// The read's own failure, said in its place. Not thrown to the boundary: tachys' `Suspend` keeps
/// its boundary's hook set over its await, so another part of the page still waiting can
/// take a failure thrown meanwhile (a service's settings showed its commits' failure in place of
/// its form); the boundary stays for what the content throws.
fn failed(error: ApiError, refetch: Callback<()>) -> AnyView {
    let mut errors = Errors::default();
    errors.insert_with_default_key(error);
    view! { <ErrorNotice errors=ArcRwSignal::new(errors) on_retry=refetch/> }.into_any()
}
