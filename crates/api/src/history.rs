//! What happened to a service: its deployment history (spec 2.17) and its log lines.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::FieldError;
use crate::service_type::ServiceType;
use crate::status::{ActionStatus, ServiceState, StatusAction, StatusDetails, SubAction};

/// A commit's or an execution's id as pages show it: its first 8 characters.
pub fn short_id(id: &str) -> String {
    id.chars().take(8).collect()
}

/// A git commit (spec 2.18).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Commit {
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    pub git_commit_id: String,
    /// Empty when no tag points at the commit.
    #[serde(default)]
    pub tag: String,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub author_name: String,
    pub author_avatar_url: Option<String>,
    pub commit_page_url: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentIdentifier {
    pub name: String,
    pub service_id: Uuid,
    pub service_type: ServiceType,
    #[serde(default)]
    pub execution_id: String,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditingData {
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    /// Who asked: an API token's name or an access token's user.
    pub triggered_by: String,
    /// Where the request came from: API.
    #[serde(default)]
    pub origin: String,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentDetails {
    /// The commit deployed, for services built from git: its message and author when the
    /// repository can be read.
    pub commit: Option<Commit>,
    /// The image deployed, for services run from one (the production document's container and
    /// job details).
    pub image_name: Option<String>,
    pub tag: Option<String>,
    /// The chart deployed, for helm services installed from a helm repository.
    pub repository: Option<DeployedChart>,
    /// Ours: the execution id of the earlier deployment this one rolled back to.
    pub rollback_to: Option<String>,
}

/// The chart of a helm deployment (the production document's `HelmDeploymentHistoryDetails`).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeployedChart {
    pub chart_name: Option<String>,
    pub chart_version: Option<String>,
}

impl DeploymentDetails {
    /// What the deployment put in place, in a few words: a short commit, an image tag, a chart
    /// version.
    pub fn what(&self) -> Option<String> {
        if let Some(commit) = &self.commit {
            return Some(short_id(&commit.git_commit_id));
        }
        if let Some(tag) = &self.tag {
            return Some(match &self.image_name {
                Some(image) => format!("{image}:{tag}"),
                None => tag.clone(),
            });
        }
        let chart = self.repository.as_ref()?;
        Some(format!(
            "{} {}",
            chart.chart_name.as_deref().unwrap_or("chart"),
            chart.chart_version.as_deref()?
        ))
    }
}

wire_enum!(
    /// How a deployment ended, as the history filters it.
    HistoryOutcome {
        Success = "SUCCESS" => "Succeeded",
        Failed = "FAILED" => "Failed",
    }
);

/// One deployment of a service (spec 2.17).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentHistoryEntry {
    pub identifier: DeploymentIdentifier,
    pub status: ServiceState,
    pub auditing_data: AuditingData,
    pub details: DeploymentDetails,
    pub status_details: StatusDetails,
    #[serde(default)]
    pub icon_uri: String,
    /// ISO 8601 duration from the request to the end (or to now), e.g. `PT45S`.
    #[serde(default)]
    pub total_duration: String,
}

impl DeploymentHistoryEntry {
    /// Whether deploying again what this entry deployed makes sense: a deployment that succeeded,
    /// of a service that is built, runs an image or installs a chart (not a database, not a plan).
    pub fn can_roll_back_to(&self) -> bool {
        self.status_details.action == StatusAction::Deploy
            && self.status_details.status == ActionStatus::Success
            && self.status_details.sub_action != SubAction::TerraformPlanOnly
            && self.identifier.service_type != ServiceType::Database
    }
}

impl crate::deploy::DeployRequest {
    /// The deploy that puts back what `entry` deployed: the production document's fields (its
    /// commit, image tag or chart version), which a platform without rollbacks reads alone, and
    /// ours naming the entry, with which this server also restores the image and chart values.
    pub fn rolling_back_to(entry: &DeploymentHistoryEntry) -> Self {
        let details = &entry.details;
        crate::deploy::DeployRequest {
            git_commit_id: details
                .commit
                .as_ref()
                .map(|commit| commit.git_commit_id.clone()),
            image_tag: details.tag.clone(),
            chart_version: details
                .repository
                .as_ref()
                .and_then(|chart| chart.chart_version.clone()),
            rollback_to: Some(entry.identifier.execution_id.clone()),
            ..crate::deploy::DeployRequest::default()
        }
    }
}

wire_enum!(
    /// Where a stage of an environment's deployment is.
    StageStatus {
        Queued = "QUEUED",
        Ongoing = "ONGOING",
        Done = "DONE",
        Error = "ERROR",
        Skipped = "SKIPPED",
        Canceled = "CANCELED",
    }
);

impl StageStatus {
    /// A stage is where its least advanced service is: running while one runs, failed when one
    /// failed, canceled when one was, done when all are.
    pub fn of(services: &[DeploymentHistoryEntry]) -> Self {
        let any = |wanted: ActionStatus| {
            services
                .iter()
                .any(|service| service.status_details.status == wanted)
        };
        if any(ActionStatus::Ongoing)
            || any(ActionStatus::Executing)
            || any(ActionStatus::Canceling)
        {
            StageStatus::Ongoing
        } else if any(ActionStatus::Queued) {
            StageStatus::Queued
        } else if any(ActionStatus::Error) {
            StageStatus::Error
        } else if any(ActionStatus::Canceled) {
            StageStatus::Canceled
        } else {
            StageStatus::Done
        }
    }

    /// The same, in the words of an action's status.
    pub fn action_status(self) -> ActionStatus {
        match self {
            StageStatus::Queued => ActionStatus::Queued,
            StageStatus::Ongoing => ActionStatus::Ongoing,
            StageStatus::Done | StageStatus::Skipped => ActionStatus::Success,
            StageStatus::Error => ActionStatus::Error,
            StageStatus::Canceled => ActionStatus::Canceled,
            StageStatus::Other(value) => ActionStatus::Other(value),
        }
    }
}

/// A stage of an environment's deployment and its services' deployments.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentHistoryStage {
    pub name: String,
    pub status: StageStatus,
    /// ISO 8601 duration, e.g. `PT45S`.
    pub duration: String,
    #[serde(default)]
    pub services: Vec<DeploymentHistoryEntry>,
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentDeploymentIdentifier {
    pub execution_id: String,
    pub environment_id: Uuid,
}

/// One deployment of an environment (the production document's
/// `DeploymentHistoryEnvironmentV2`): the services one request acted on, or one service's own
/// action.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentDeployment {
    pub identifier: EnvironmentDeploymentIdentifier,
    pub auditing_data: AuditingData,
    pub status: ServiceState,
    pub trigger_action: StatusAction,
    pub total_duration: String,
    #[serde(default)]
    pub stages: Vec<DeploymentHistoryStage>,
    pub action_status: ActionStatus,
}

impl EnvironmentDeployment {
    /// Every service deployment of it, whatever its stage.
    pub fn services(&self) -> impl Iterator<Item = &DeploymentHistoryEntry> {
        self.stages.iter().flat_map(|stage| &stage.services)
    }

    /// Whether deploying again what it deployed makes sense: a deployment that succeeded, each
    /// of its services one that can be rolled back to (or a database).
    pub fn can_roll_back_to(&self) -> bool {
        self.trigger_action == StatusAction::Deploy
            && self.action_status == ActionStatus::Success
            && self.services().next().is_some()
            && self.services().all(|service| {
                // A database is deployed again as it is: it holds no build to go back to.
                service.can_roll_back_to()
                    || service.identifier.service_type == ServiceType::Database
            })
    }
}

/// A page of an environment's history, newest first.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentDeploymentPage {
    pub page: i64,
    pub page_size: i64,
    #[serde(default)]
    pub results: Vec<EnvironmentDeployment>,
}

/// A page of the history, newest first.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeploymentHistoryPage {
    pub page: i64,
    pub page_size: i64,
    #[serde(default)]
    pub results: Vec<DeploymentHistoryEntry>,
}

/// Query of a history: `pageSize` 1 to 100 (20 by default), `page` from 1 to `PAGE_MAX`; only
/// the deployments that ended in `status`, of `git_commit_id` (a prefix of it), asked for by
/// `triggered_by`, when given.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HistoryQuery {
    #[serde(rename = "pageSize", default = "default_page_size")]
    pub page_size: i64,
    #[serde(default = "first_page")]
    pub page: i64,
    #[serde(default)]
    pub status: Option<HistoryOutcome>,
    #[serde(default)]
    pub git_commit_id: Option<String>,
    #[serde(default)]
    pub triggered_by: Option<String>,
}

/// The last page a history may be asked for: far beyond any history, and low enough that the
/// offset it makes (`page` times `pageSize`) cannot overflow.
pub const PAGE_MAX: i64 = 1_000_000;

/// Longer than any token's or user's name: a filter past it can match nothing.
const TRIGGERED_BY_MAX_CHARS: usize = 255;

fn default_page_size() -> i64 {
    20
}

fn first_page() -> i64 {
    1
}

impl HistoryQuery {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut problems = Vec::new();
        if !(1..=100).contains(&self.page_size) {
            problems.push(FieldError::new("pageSize", "must be from 1 to 100"));
        }
        if !(1..=PAGE_MAX).contains(&self.page) {
            problems.push(FieldError::new(
                "page",
                format!("must be from 1 to {PAGE_MAX}"),
            ));
        }
        if let Some(commit) = &self.git_commit_id {
            problems.extend(crate::rules::git_commit_id("git_commit_id", commit));
        }
        if self
            .triggered_by
            .as_ref()
            .is_some_and(|who| who.chars().count() > TRIGGERED_BY_MAX_CHARS)
        {
            problems.push(FieldError::new(
                "triggered_by",
                format!("must be at most {TRIGGERED_BY_MAX_CHARS} characters"),
            ));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

/// Seconds as an ISO 8601 duration: `PT45S`.
pub fn iso_duration(seconds: i64) -> String {
    format!("PT{}S", seconds.max(0))
}

/// Whole seconds of an ISO 8601 duration of days and time (`PT45S`, `PT1H2M3S`, `PT2.5S`, `P1D`,
/// `P1W`, `P1DT12H`); none when it is not one (months and years, whose length varies, are not).
pub fn iso_duration_seconds(text: &str) -> Option<i64> {
    let rest = text.strip_prefix('P')?;
    let (date, time) = match rest.split_once('T') {
        Some((date, time)) if !time.is_empty() => (date, Some(time)),
        Some(_) => return None,
        None if !rest.is_empty() => (rest, None),
        None => return None,
    };
    // Counted in billionths of a second, in integers: `f64`'s parse brings its tables (~10 KB)
    // into the console, which reads these.
    let date_units: &[(char, u64)] = &[('W', 604_800), ('D', 86_400)];
    let time_units: &[(char, u64)] = &[('H', 3600), ('M', 60), ('S', 1)];
    let mut nanos: u64 = 0;
    for (part, units) in [(Some(date), date_units), (time, time_units)] {
        let mut rest = part.unwrap_or_default();
        while !rest.is_empty() {
            let end = rest.find(|c: char| c.is_ascii_alphabetic())?;
            let letter = rest[end..].chars().next()?;
            let (_, unit) = units.iter().find(|(name, _)| *name == letter)?;
            nanos = nanos.checked_add(billionths(&rest[..end])?.checked_mul(*unit)?)?;
            rest = &rest[end + 1..];
        }
    }
    i64::try_from(nanos.checked_add(500_000_000)? / 1_000_000_000).ok()
}

/// A decimal number ("2", "2.5", "0,25") in billionths; digits past the ninth decimal dropped.
fn billionths(number: &str) -> Option<u64> {
    let (whole, fraction) = number.split_once(['.', ',']).unwrap_or((number, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !digits(whole) || !digits(fraction) {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let fraction: u64 = format!("{:0<9}", &fraction[..fraction.len().min(9)])
        .parse()
        .ok()?;
    whole.checked_mul(1_000_000_000)?.checked_add(fraction)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    #[test]
    fn iso_durations_read_back() {
        assert_eq!(iso_duration_seconds(&iso_duration(45)), Some(45));
        assert_eq!(iso_duration_seconds("PT1H2M3S"), Some(3723));
        assert_eq!(iso_duration_seconds("PT2.5S"), Some(3));
        assert_eq!(iso_duration_seconds("PT2.4999999999S"), Some(2));
        assert_eq!(iso_duration_seconds("PT1.5H0,5S"), Some(5401));
        assert_eq!(iso_duration_seconds("PT.25M"), Some(15));
        assert_eq!(iso_duration_seconds("PT1e3S"), None);
        assert_eq!(iso_duration_seconds("PT-5S"), None);
        assert_eq!(iso_duration_seconds("PT.S"), None);
        assert_eq!(iso_duration_seconds("PT99999999999H"), None);
        assert_eq!(iso_duration_seconds("PT"), None);
        assert_eq!(iso_duration_seconds("PT5X"), None);
        assert_eq!(iso_duration_seconds("P1D"), Some(86_400));
        assert_eq!(iso_duration_seconds("P1W"), Some(604_800));
        assert_eq!(iso_duration_seconds("P1DT12H"), Some(129_600));
        assert_eq!(iso_duration_seconds("PT0S"), Some(0));
        for refused in ["P", "P1DT", "P1M", "P1Y", "5m", ""] {
            assert_eq!(iso_duration_seconds(refused), None, "{refused}");
        }
    }

    #[test]
    fn paging_and_tail_have_bounds() {
        let query: HistoryQuery = serde_json::from_str("{}").unwrap();
        assert_eq!((query.page_size, query.page), (20, 1));
        let wrong = HistoryQuery {
            page_size: 101,
            page: 0,
            git_commit_id: Some("main".into()),
            ..query
        };
        let fields = refused_fields(wrong.validate());
        assert_eq!(fields, ["pageSize", "page", "git_commit_id"]);
        assert_eq!(iso_duration(45), "PT45S");
    }
}

/// Someone who committed to a service's repository, as the document's `User` of an
/// application's contributors gives them: named by the commits' author.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Contributor {
    pub id: Option<uuid::Uuid>,
    /// Their first commit among the last hundred.
    #[serde(default, with = "crate::timestamp::option")]
    pub created_at: Option<DateTime<Utc>>,
    /// Their last commit.
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub profile_picture_url: Option<String>,
}

impl Contributor {
    /// "Ada Lovelace", or the email when no name was given.
    pub fn full_name(&self) -> String {
        let name = [self.first_name.as_deref(), self.last_name.as_deref()]
            .into_iter()
            .flatten()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        if name.is_empty() {
            self.email.clone().unwrap_or_default()
        } else {
            name
        }
    }
}
