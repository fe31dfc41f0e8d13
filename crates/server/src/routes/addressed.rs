//! The organization a request is about, which decides a person's role in it: a person belongs
//! to several organizations, with a role in each (API tokens and members invited by link belong
//! to one). Read, in order, from the route's path (an organization's id, or the record its first
//! id names: a project, an environment, a service, a cluster, a variable, a rule, a stage, a
//! deployment), from the query (`organizationId`, or the record another id names), and from the
//! body's top-level `organization_id` (the few routes that take it there, alert rules and
//! receivers). None when the request names none (the person's account, their organizations).

use axum::body::{Body, Bytes};
use axum::http::request::Parts;
use serde::Deserialize;
use uuid::Uuid;

use crate::error::{ApiError, BODY_LIMIT_BYTES};
use crate::state::AppState;
use crate::store::people;

/// The path parameters that are an organization's id.
const ORGANIZATION_PARAMETERS: [&str; 3] = ["organization_id", "organizationId", "org"];

/// The organization of the request to `template` (the route's path, `/project/{project_id}`);
/// the body, read when it had to be, handed back whole.
pub async fn organization(
    state: &AppState,
    template: &str,
    parts: &Parts,
    body: Body,
) -> Result<(Option<Uuid>, Body), ApiError> {
    for (name, value) in path_parameters(template, parts.uri.path()) {
        let Ok(id) = Uuid::parse_str(value) else {
            continue;
        };
        if ORGANIZATION_PARAMETERS.contains(&name) {
            return Ok((Some(id), body));
        }
        // The record's organization; an unknown id goes to the handler, which says so.
        return Ok((people::owner_of(&state.db, id).await?, body));
    }
    let query = parts.uri.query().unwrap_or_default();
    for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
        if ORGANIZATION_PARAMETERS.contains(&name.as_ref()) {
            return Ok((Uuid::parse_str(&value).ok(), body));
        }
    }
    for (_, value) in url::form_urlencoded::parse(query.as_bytes()) {
        // `environmentIds=a,b`: the first.
        let first = value.split(',').next().unwrap_or_default();
        if let Ok(id) = Uuid::parse_str(first) {
            if let Some(owner) = people::owner_of(&state.db, id).await? {
                return Ok((Some(owner), body));
            }
        }
    }
    if parts.method == axum::http::Method::GET || parts.method == axum::http::Method::DELETE {
        return Ok((None, body));
    }
    let bytes = axum::body::to_bytes(body, BODY_LIMIT_BYTES)
        .await
        .map_err(|_| ApiError::too_large(BODY_LIMIT_BYTES))?;
    Ok((named_in(&bytes), Body::from(bytes)))
}

/// The body's top-level `organization_id`, when it is JSON that names one (read only where its
/// nesting is within bounds: the handler refuses the rest).
fn named_in(body: &Bytes) -> Option<Uuid> {
    #[derive(Deserialize)]
    struct Named {
        organization_id: Option<Uuid>,
    }
    if crate::untrusted::json_depth::depth(body) > crate::untrusted::MOST_DEPTH {
        return None;
    }
    serde_json::from_slice::<Named>(body)
        .ok()
        .and_then(|named| named.organization_id)
}

/// The path's parameters, by the template's names, in order.
fn path_parameters<'p>(template: &'p str, path: &'p str) -> Vec<(&'p str, &'p str)> {
    template
        .trim_start_matches('/')
        .split('/')
        .zip(path.trim_start_matches('/').split('/'))
        .filter_map(|(pattern, value)| {
            let name = pattern.strip_prefix('{')?.strip_suffix('}')?;
            Some((name, value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_read_by_the_templates_names() {
        let read = path_parameters(
            "/organization/{organization_id}/cluster/{cluster_id}",
            "/organization/a/cluster/b",
        );
        assert_eq!(read, [("organization_id", "a"), ("cluster_id", "b")]);
        assert_eq!(path_parameters("/account", "/account"), []);
        let id = Uuid::new_v4();
        let body = Bytes::from(format!(r#"{{"name": "cpu", "organization_id": "{id}"}}"#));
        assert_eq!(named_in(&body), Some(id));
        assert_eq!(named_in(&Bytes::from_static(b"[[[[")), None);
    }
}
