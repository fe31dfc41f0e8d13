//! What the signed-in token's role allows, read once from the API (`currentRole`), so that
//! actions it cannot take are disabled with the reason before a click rather than refused after.
//! Against a platform that does not say (404, asked once a tab), nothing is disabled ahead: its
//! 403 still is.

use leptos::prelude::*;
use platform_api::{CallerRole, RolePermission};

use crate::api::session::use_session;
use crate::api::{use_api, ApiError, DEPLOY_FORBIDDEN};
use crate::state::resource::resource;
use crate::state::shown_organization::use_shown_organization;

#[derive(Clone, Copy)]
pub struct CurrentRole(LocalResource<Option<CallerRole>>);

/// Provided with the app's other services; read again at each sign-in.
pub fn provide_current_role() {
    let api = use_api();
    let session = use_session();
    let shown = use_shown_organization();
    let role = resource(move || {
        // Read again when another token signs in, or another organization is shown (a
        // person's role is their membership in it); once one is.
        session.credentials();
        let shown = shown.get();
        async move { api.current_role(shown?).await.ok().flatten() }
    });
    provide_context(CurrentRole(role));
}

impl CurrentRole {
    /// Why the token cannot `doing` ("deploy"), when its role falls short of `needed`; `None`
    /// while the role is unknown.
    pub fn refusal(&self, needed: RolePermission, doing: &str) -> Option<String> {
        self.0.get().flatten()?.refusal(needed, doing)
    }
}

/// The app's; while signed out (sign-in), nothing is refused ahead.
pub fn use_current_role() -> Option<CurrentRole> {
    use_context::<CurrentRole>()
}

/// Whether the token may take a kind of action: refused ahead when its role is known to fall
/// short, and after the API answered 403 to one (a platform that does not report roles).
#[derive(Clone, Copy)]
pub struct Permitted {
    needed: RolePermission,
    doing: &'static str,
    role: Option<CurrentRole>,
    forbidden: RwSignal<bool>,
}

impl Permitted {
    /// Actions that need `needed`, described as what the person would `doing` ("deploy").
    pub fn new(needed: RolePermission, doing: &'static str) -> Self {
        Self {
            needed,
            doing,
            role: use_current_role(),
            forbidden: RwSignal::new(false),
        }
    }

    /// Why the action cannot be taken, shown beside it; `None` when it may be.
    pub fn refusal(&self) -> Option<String> {
        self.role
            .and_then(|role| role.refusal(self.needed, self.doing))
            .or_else(|| self.forbidden.get().then(|| DEPLOY_FORBIDDEN.to_string()))
    }

    /// Remembers a 403, so that the actions are disabled from then on.
    pub fn note(&self, error: &ApiError) {
        if matches!(error, ApiError::Forbidden(_)) {
            self.forbidden.set(true);
        }
    }
}
