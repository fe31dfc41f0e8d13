//! Auto-deploy: a push to a service's branch deploys it, unless its deployment restrictions
//! (`/{kind}/{id}/deploymentRestriction`) say the paths it changed do not concern it (a monorepo's
//! other services). Which pushes deploy is decided here, by the server's watch and by the
//! console's preview alike.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::history::Commit;

/// At most this many characters in a restriction's value.
pub const RESTRICTION_VALUE_MAX_CHARS: usize = 255;

wire_enum!(
    /// How a restriction reads the paths a push changed: MATCH deploys only when a changed path
    /// is under the value; EXCLUDE does not count the changed paths under it.
    DeploymentRestrictionMode {
        Match = "MATCH" => "Deploy only when these change",
        Exclude = "EXCLUDE" => "Ignore changes to these",
    }
);

wire_enum!(
    /// What a restriction's value names: a path in the repository (the document's only kind).
    DeploymentRestrictionType {
        Path = "PATH" => "Path",
    }
);

/// Body of `POST /{kind}/{id}/deploymentRestriction` and of its edit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentRestrictionRequest {
    pub mode: DeploymentRestrictionMode,
    #[serde(rename = "type")]
    pub kind: DeploymentRestrictionType,
    /// A path in the repository, without a leading `/`: a folder (`app/src/`) or a file.
    pub value: String,
}

impl DeploymentRestrictionRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        match restriction_path("value", &self.value) {
            Some(error) => Err(vec![error]),
            None => Ok(()),
        }
    }
}

/// A restriction's path: not empty, not starting with `/`, no `..` part, at most
/// `RESTRICTION_VALUE_MAX_CHARS` characters.
pub fn restriction_path(field: &str, value: &str) -> Option<FieldError> {
    let rule = if value.trim().is_empty() {
        "is required: a path in the repository, e.g. app/src/"
    } else if value.starts_with('/') {
        "must not start with /: a path from the repository's root, e.g. app/src/"
    } else if value.split('/').any(|part| part == "..") {
        "must not contain a .. part"
    } else if value.chars().count() > RESTRICTION_VALUE_MAX_CHARS {
        "must be at most 255 characters"
    } else {
        return None;
    };
    Some(FieldError::new(field, rule))
}

/// A restriction as answered.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentRestriction {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default)]
    #[serde(with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    #[serde(flatten)]
    pub rule: DeploymentRestrictionRequest,
}

/// Whether `path` (a file the push changed) is `value` or under it.
fn under(path: &str, value: &str) -> bool {
    let value = value.trim().trim_end_matches('/');
    value.is_empty()
        || path == value
        || path
            .strip_prefix(value)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// What a push does to a service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PushDecision {
    Deploy,
    /// Not deployed, and why, in a sentence.
    Skip(String),
}

/// Whether a push that changed `changed` (paths in the repository) deploys a service with these
/// restrictions: the paths under an EXCLUDE value do not count; of the others, one must be
/// under a MATCH value when there is any. A push whose changes are unknown (its parent was not
/// read) deploys.
pub fn decide(rules: &[DeploymentRestrictionRequest], changed: Option<&[String]>) -> PushDecision {
    let Some(changed) = changed else {
        return PushDecision::Deploy;
    };
    if rules.is_empty() || changed.is_empty() {
        return PushDecision::Deploy;
    }
    let values = |mode: DeploymentRestrictionMode| -> Vec<&str> {
        rules
            .iter()
            .filter(|rule| rule.mode == mode)
            .map(|rule| rule.value.as_str())
            .collect()
    };
    let excluded = values(DeploymentRestrictionMode::Exclude);
    let matching = values(DeploymentRestrictionMode::Match);
    let counted: Vec<&String> = changed
        .iter()
        .filter(|path| !excluded.iter().any(|value| under(path, value)))
        .collect();
    if counted.is_empty() {
        return PushDecision::Skip(format!(
            "every changed path is excluded ({})",
            excluded.join(", ")
        ));
    }
    if !matching.is_empty()
        && !counted
            .iter()
            .any(|path| matching.iter().any(|value| under(path, value)))
    {
        return PushDecision::Skip(format!("no changed path is under {}", matching.join(", ")));
    }
    PushDecision::Deploy
}

/// A commit of the service's branch and the paths it changed from its first parent (ours:
/// `GET /{kind}/{id}/commitChanges`), for the console's preview of restrictions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CommitChanges {
    pub commit: Commit,
    /// Every path a root commit holds.
    #[serde(default)]
    pub changed_paths: Vec<String>,
}

wire_enum!(
    /// What auto-deploy did with a push.
    PushOutcome {
        Deployed = "DEPLOYED" => "Deployed",
        Skipped = "SKIPPED" => "Skipped",
    }
);

/// A push auto-deploy saw on a service's branch.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Push {
    pub git_commit_id: String,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub author_name: String,
    #[serde(with = "crate::timestamp")]
    pub seen_at: DateTime<Utc>,
    pub outcome: PushOutcome,
    /// Why a skipped push was not deployed.
    pub reason: Option<String>,
    /// The deployment a deployed push queued.
    pub execution_id: Option<String>,
}

/// Whether and what auto-deploy watches on a service (ours: `GET /{kind}/{id}/autoDeploy`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AutoDeployWatch {
    /// Whether a push to `branch` deploys the service now.
    pub watching: bool,
    /// Why it does not, when it does not: switched off, or a repository out of reach.
    pub not_watching_because: Option<String>,
    pub branch: Option<String>,
    /// The branch's tip when the watch last found it changed, and when that was.
    pub last_seen: Option<Commit>,
    #[serde(default, with = "crate::timestamp::option")]
    pub seen_at: Option<DateTime<Utc>>,
    /// The latest pushes it acted on, newest first.
    #[serde(default)]
    pub pushes: Vec<Push>,
}

/// Body of `POST /organization/{id}/container/deploy` and `/job/deploy`: a new tag of an image,
/// deployed by every service with `auto_deploy` that runs the image at another tag.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ImageAutoDeployRequest {
    pub image_name: String,
    pub tag: String,
}

impl ImageAutoDeployRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let errors: Vec<FieldError> = [
            crate::rules::image_name("image_name", &self.image_name),
            crate::rules::image_tag("tag", &self.tag),
        ]
        .into_iter()
        .flatten()
        .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

/// Where a record that runs an image holds its name and tag as JSON (`$.a.b`), for storage that
/// reads or edits them in place.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImagePaths {
    pub name: &'static str,
    pub tag: &'static str,
}

impl ImagePaths {
    pub const CONTAINER: ImagePaths = ImagePaths {
        name: "$.image_name",
        tag: "$.tag",
    };
    /// A job run from an image (not built from git).
    pub const JOB: ImagePaths = ImagePaths {
        name: "$.source.image.image_name",
        tag: "$.source.image.tag",
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(mode: DeploymentRestrictionMode, value: &str) -> DeploymentRestrictionRequest {
        DeploymentRestrictionRequest {
            mode,
            kind: DeploymentRestrictionType::Path,
            value: value.to_string(),
        }
    }

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|path| path.to_string()).collect()
    }

    #[test]
    fn without_rules_every_push_deploys() {
        assert_eq!(decide(&[], Some(&paths(&["a"]))), PushDecision::Deploy);
        assert_eq!(decide(&[], None), PushDecision::Deploy);
    }

    #[test]
    fn excluded_paths_do_not_count() {
        let rules = [rule(DeploymentRestrictionMode::Exclude, "docs/")];
        assert_eq!(
            decide(&rules, Some(&paths(&["docs/a.md", "docs/b/c.md"]))),
            PushDecision::Skip("every changed path is excluded (docs/)".into())
        );
        assert_eq!(
            decide(&rules, Some(&paths(&["docs/a.md", "src/main.rs"]))),
            PushDecision::Deploy
        );
        // A value names a folder or a file, never a prefix of a name.
        assert_eq!(
            decide(&rules, Some(&paths(&["docsite/index.html"]))),
            PushDecision::Deploy
        );
    }

    #[test]
    fn with_match_rules_a_changed_path_must_be_under_one() {
        let rules = [
            rule(DeploymentRestrictionMode::Match, "web/"),
            rule(DeploymentRestrictionMode::Exclude, "web/README.md"),
        ];
        assert_eq!(
            decide(&rules, Some(&paths(&["api/main.go"]))),
            PushDecision::Skip("no changed path is under web/".into())
        );
        assert_eq!(
            decide(&rules, Some(&paths(&["web/README.md"]))),
            PushDecision::Skip("every changed path is excluded (web/README.md)".into())
        );
        assert_eq!(
            decide(&rules, Some(&paths(&["web/README.md", "web/app.js"]))),
            PushDecision::Deploy
        );
    }

    #[test]
    fn a_restriction_names_a_path_from_the_root() {
        let request = |value: &str| rule(DeploymentRestrictionMode::Match, value).validate();
        assert!(request("app/src/").is_ok());
        assert!(request("Dockerfile").is_ok());
        for bad in ["", "  ", "/app", "app/../secret"] {
            let errors = request(bad).unwrap_err();
            assert_eq!(errors[0].field, "value", "{bad}");
        }
    }
}

wire_enum!(
    /// Whether pushes to a service's branch reach the platform (the production document's git
    /// webhook; on the reference server, the auto-deploy watch of the branch).
    GitWebhookState {
        Active = "ACTIVE" => "Active",
        NotConfigured = "NOT_CONFIGURED" => "Not configured",
        Misconfigured = "MISCONFIGURED" => "Misconfigured",
        UnableToVerify = "UNABLE_TO_VERIFY" => "Unable to verify",
    }
);

/// `GET /service/{id}/gitWebhookStatus` and the answer of its sync: whether pushes reach the
/// platform, at which code host.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GitWebhookStatus {
    pub status: GitWebhookState,
    pub provider: crate::git_token::GitProvider,
    /// The events the webhook lacks, when it is misconfigured.
    #[serde(default)]
    pub missing_events: Option<Vec<String>>,
}
