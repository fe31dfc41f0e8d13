use leptos::prelude::*;

use super::error_notice::ErrorNotice;
use super::skeleton::Skeleton;
use crate::api::ApiError;
use crate::state::connection::Connection;
use crate::state::session::Session;

/// Shows a resource: a skeleton on first load, the last content while it refreshes (no flicker
/// when polling), and a notice with "Try again" when it fails; fetched again when the API comes
/// back after being unreachable, and after signing in again.
pub fn loaded<T, V>(
    resource: LocalResource<Result<T, ApiError>>,
    skeleton_lines: usize,
    render: impl Fn(T) -> V + Clone + Send + Sync + 'static,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    // When the API answers again after being unreachable, show what it says now.
    if let Some(connection) = use_context::<Connection>() {
        Effect::new(move |seen: Option<u32>| {
            let restored = connection.restored();
            if seen.is_some_and(|seen| seen != restored) {
                resource.refetch();
            }
            restored
        });
    }
    // A page that stays while a new token is handed over (embedded) reads again once it is.
    if let Some(session) = use_context::<Session>() {
        Effect::new(move |was_signed_in: Option<bool>| {
            let signed_in = session.is_signed_in();
            if was_signed_in == Some(false) && signed_in {
                resource.refetch();
            }
            signed_in
        });
    }
    view! {
        <Transition fallback=move || view! { <Skeleton lines=skeleton_lines/> }>
            <ErrorBoundary fallback=move |errors| view! {
                <ErrorNotice errors on_retry=Callback::new(move |_| resource.refetch())/>
            }>
                {
                    let render = render.clone();
                    move || {
                        let render = render.clone();
                        Suspend::new(async move { resource.await.map(render) })
                    }
                }
            </ErrorBoundary>
        </Transition>
    }
}
