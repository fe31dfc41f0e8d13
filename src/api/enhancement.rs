//! Routes of the reference server that the production platform does not have (README, "Against
//! the production platform"). The console asks for one while the API may have it; an answer of
//! 404 or 405 means it does not, and is remembered for the API's address in the tab's session
//! storage, so that the console falls back to the platform's way at once from then on, without
//! asking again and without showing an error. `currentRole` is asked at every sign-in: an API
//! without it is not this server, and none of the others is tried there (no "Send a test event"
//! offered to be refused).

use gloo_net::http::Method;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::{decode, Api, ApiError};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enhancement {
    /// `GET /organization/{id}/currentRole`: the token's role, to disable actions before a click.
    CurrentRole,
    /// `POST /{scope}/{id}/environmentVariable/bulk`: many variables changed in one request.
    VariableBulk,
    /// `POST /organization/{id}/webhook/{id}/test`: a test event sent to a webhook.
    WebhookTest,
    /// `GET /organization/{id}/webhook/{id}/delivery`: each delivery with its attempts.
    WebhookDeliveries,
    /// `page` and `pageSize` of `GET /variable`: a long list read in bounded pages.
    VariablePages,
    /// `GET /{kind}/{id}/autoDeploy`: whether a push deploys the service, and the pushes seen.
    AutoDeployWatch,
    /// `GET /{kind}/{id}/commitChanges`: the branch's commits with the paths each changed.
    CommitChanges,
    /// `GET /environment/{id}/previews`: an environment's previews, and what it previews.
    Previews,
}

impl Enhancement {
    const ALL: [Enhancement; 8] = [
        Enhancement::CurrentRole,
        Enhancement::VariableBulk,
        Enhancement::WebhookTest,
        Enhancement::WebhookDeliveries,
        Enhancement::VariablePages,
        Enhancement::AutoDeployWatch,
        Enhancement::CommitChanges,
        Enhancement::Previews,
    ];

    /// What a 404 of this one says the API lacks: every enhancement when it is `currentRole`.
    fn lacking_with(self) -> &'static [Enhancement] {
        match self {
            Enhancement::CurrentRole => &Self::ALL,
            Enhancement::VariableBulk => &[Enhancement::VariableBulk],
            Enhancement::WebhookTest => &[Enhancement::WebhookTest],
            Enhancement::WebhookDeliveries => &[Enhancement::WebhookDeliveries],
            Enhancement::VariablePages => &[Enhancement::VariablePages],
            Enhancement::AutoDeployWatch => &[Enhancement::AutoDeployWatch],
            Enhancement::CommitChanges => &[Enhancement::CommitChanges],
            Enhancement::Previews => &[Enhancement::Previews],
        }
    }

    fn name(self) -> &'static str {
        match self {
            Enhancement::CurrentRole => "currentRole",
            Enhancement::VariableBulk => "variableBulk",
            Enhancement::WebhookTest => "webhookTest",
            Enhancement::WebhookDeliveries => "webhookDeliveries",
            Enhancement::VariablePages => "variablePages",
            Enhancement::AutoDeployWatch => "autoDeployWatch",
            Enhancement::CommitChanges => "commitChanges",
            Enhancement::Previews => "previews",
        }
    }
}

fn storage_key(base_url: &str) -> String {
    format!("platform-console:lacks:{base_url}")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// Whether the API at `base_url` is known to lack `enhancement`.
fn lacks(base_url: &str, enhancement: Enhancement) -> bool {
    storage()
        .and_then(|storage| storage.get_item(&storage_key(base_url)).ok().flatten())
        .is_some_and(|names| names.split(',').any(|name| name == enhancement.name()))
}

fn remember_lacking(base_url: &str, enhancement: Enhancement) {
    let Some(storage) = storage() else { return };
    let key = storage_key(base_url);
    let mut names = storage.get_item(&key).ok().flatten().unwrap_or_default();
    for lacking in enhancement.lacking_with() {
        if !lacks(base_url, *lacking) {
            if !names.is_empty() {
                names.push(',');
            }
            names.push_str(lacking.name());
            let _ = storage.set_item(&key, &names);
        }
    }
}

impl Api {
    /// Whether the API is known to lack `enhancement`: what offers it is not shown.
    pub fn lacks(&self, enhancement: Enhancement) -> bool {
        self.session
            .credentials_untracked()
            .is_some_and(|credentials| lacks(&credentials.base_url, enhancement))
    }

    /// Notes that the API lacks `enhancement`, learnt from an answer other than a 404 or 405
    /// (a list answered whole although a page was asked for).
    pub(super) fn learn_lacking(&self, enhancement: Enhancement) {
        if let Some(credentials) = self.session.credentials_untracked() {
            remember_lacking(&credentials.base_url, enhancement);
        }
    }

    /// Calls `enhancement` at `path`: `Ok(None)` when the API lacks it (known before, or
    /// learnt now from a 404 or 405 of a route the platform does not have).
    pub(super) async fn enhanced<B: Serialize, T: DeserializeOwned>(
        &self,
        enhancement: Enhancement,
        method: Method,
        path: &str,
        body: Option<&B>,
    ) -> Result<Option<T>, ApiError> {
        if self.lacks(enhancement) {
            return Ok(None);
        }
        let body = body
            .map(serde_json::to_string)
            .transpose()
            .map_err(|e| ApiError::Decode(e.to_string()))?;
        match self.call(method, path, body).await {
            Ok(answer) => decode(&answer).map(Some),
            Err(ApiError::NotFound(_) | ApiError::Server { status: 405, .. }) => {
                self.learn_lacking(enhancement);
                Ok(None)
            }
            Err(error) => Err(error),
        }
    }
}
