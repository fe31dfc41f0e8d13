//! Preview environments (ours, `GET /environment/{id}/previews`): the clones of an environment
//! made for a branch of a service's repository (a branch stands for a pull request here) or for
//! a new tag of a container's image, deployed at it and removed when the branch goes.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

wire_enum!(
    /// What a preview environment was made for.
    PreviewTrigger {
        Branch = "BRANCH" => "Branch",
        ImageTag = "IMAGE_TAG" => "Image tag",
    }
);

/// A preview environment: made for `reference` (a branch, or an image's tag) of a service of
/// its source environment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Preview {
    pub environment_id: Uuid,
    /// The preview's name.
    pub name: String,
    pub source_environment_id: Uuid,
    pub source_environment_name: String,
    /// The service whose branch or image made it (in the source environment).
    pub service_id: Uuid,
    pub trigger: PreviewTrigger,
    pub reference: String,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
}

impl Preview {
    /// What it previews, as a person reads it: "branch feat-login", "tag 1.4".
    pub fn describe(&self) -> String {
        match self.trigger {
            PreviewTrigger::Branch => format!("branch {}", self.reference),
            PreviewTrigger::ImageTag => format!("tag {}", self.reference),
            PreviewTrigger::Other(_) => self.reference.clone(),
        }
    }
}

/// An environment's previews, and what it is the preview of when it is one.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentPreviews {
    pub preview_of: Option<Preview>,
    #[serde(default)]
    pub previews: Vec<Preview>,
}

/// A preview environment's name: the source's and the reference's, in the characters an
/// environment's name takes, at most `max` characters.
pub fn preview_name(source: &str, reference: &str, max: usize) -> String {
    let reference: String = reference
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let name = format!("{source}-{}", reference.trim_matches('-'));
    name.chars()
        .take(max)
        .collect::<String>()
        .trim_end_matches('-')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_previews_name_is_an_environments_name() {
        assert_eq!(
            preview_name("staging", "feat/Login_page", 63),
            "staging-feat-login-page"
        );
        assert_eq!(preview_name("staging", "1.4", 63), "staging-1-4");
        let long = preview_name("staging", "a-very-long-branch-name", 16);
        assert_eq!(long, "staging-a-very-l");
        assert_eq!(preview_name("staging", "x--", 10), "staging-x");
        for name in [long, preview_name("web", "feat/é", 63)] {
            assert_eq!(
                crate::rules::environment_name("name", &name),
                None,
                "{name}"
            );
        }
    }
}
