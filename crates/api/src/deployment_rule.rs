//! Deployment rules: an environment's schedule (started and stopped on its weekdays at its
//! times, in its time zone, when `auto_stop` is on) and its preview settings; a project's rules,
//! in priority order, applied to the environments created afterwards whose names match.

use chrono::{DateTime, NaiveTime, Timelike, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::environment::EnvironmentMode;
use crate::error::FieldError;
use crate::rules;
use crate::rules::Violations;

wire_enum!(
    /// A day of the week, as schedules name it.
    Weekday {
        Monday = "MONDAY" => "Monday",
        Tuesday = "TUESDAY" => "Tuesday",
        Wednesday = "WEDNESDAY" => "Wednesday",
        Thursday = "THURSDAY" => "Thursday",
        Friday = "FRIDAY" => "Friday",
        Saturday = "SATURDAY" => "Saturday",
        Sunday = "SUNDAY" => "Sunday",
    }
);

impl Weekday {
    /// The same day in chrono's words.
    pub fn of(day: chrono::Weekday) -> Self {
        match day {
            chrono::Weekday::Mon => Weekday::Monday,
            chrono::Weekday::Tue => Weekday::Tuesday,
            chrono::Weekday::Wed => Weekday::Wednesday,
            chrono::Weekday::Thu => Weekday::Thursday,
            chrono::Weekday::Fri => Weekday::Friday,
            chrono::Weekday::Sat => Weekday::Saturday,
            chrono::Weekday::Sun => Weekday::Sunday,
        }
    }
}

/// A time of day as people write and read it: `08:00`, on a 24-hour clock. Written out rather
/// than with chrono's patterns (`%H:%M`), whose parser and tables the console would carry.
pub fn clock_text(time: NaiveTime) -> String {
    format!("{:02}:{:02}", time.hour(), time.minute())
}

/// `08:00` (or `8:00`) as a time of day; `None` if it is not one.
pub fn read_clock_text(text: &str) -> Option<NaiveTime> {
    let (hour, minute) = text.trim().split_once(':')?;
    let number = |digits: &str| match digits.len() {
        1 | 2 if digits.bytes().all(|b| b.is_ascii_digit()) => digits.parse::<u32>().ok(),
        _ => None,
    };
    NaiveTime::from_hms_opt(number(hour)?, number(minute)?, 0)
}

/// A schedule's time of day: the document sends it as a date-time on 1 January 1970, whose
/// hours and minutes are read on the wall clock of the schedule's time zone.
pub fn time_of_day(at: DateTime<Utc>) -> NaiveTime {
    NaiveTime::from_hms_opt(at.hour(), at.minute(), 0).unwrap_or_default()
}

/// The document's form of a time of day: 1 January 1970 at that time.
pub fn at_time_of_day(time: NaiveTime) -> DateTime<Utc> {
    chrono::NaiveDate::from_ymd_opt(1970, 1, 1)
        .unwrap_or_default()
        .and_time(time)
        .and_utc()
}

/// When an environment runs, if `auto_stop` is on: on `weekdays`, from `start_time` to
/// `stop_time` (the next day when it is earlier), on the wall clock of `timezone`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Schedule {
    #[serde(default)]
    pub auto_stop: bool,
    pub timezone: String,
    #[serde(with = "crate::timestamp")]
    pub start_time: DateTime<Utc>,
    #[serde(with = "crate::timestamp")]
    pub stop_time: DateTime<Utc>,
    pub weekdays: Vec<Weekday>,
}

impl Schedule {
    fn check(&self, violations: &mut Violations) {
        violations.check(rules::timezone("timezone", &self.timezone));
        if self.auto_stop && self.weekdays.is_empty() {
            violations.check(Some(FieldError::new(
                "weekdays",
                "needs at least one day for the environment to run on",
            )));
        }
        if time_of_day(self.start_time) == time_of_day(self.stop_time) {
            violations.check(Some(FieldError::new(
                "stop_time",
                "must differ from the start time",
            )));
        }
    }
}

/// Body of `PUT /environment/{id}/deploymentRule/{ruleId}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentDeploymentRuleRequest {
    /// Previews made only when asked for, not for every pull request.
    #[serde(default)]
    pub on_demand_preview: bool,
    /// A preview environment for each pull request of its services' repositories.
    #[serde(default)]
    pub auto_preview: bool,
    #[serde(flatten)]
    pub schedule: Schedule,
}

impl EnvironmentDeploymentRuleRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        self.schedule.check(&mut violations);
        violations.into_result()
    }
}

/// An environment's deployment rule as answered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EnvironmentDeploymentRule {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    #[serde(flatten)]
    pub rule: EnvironmentDeploymentRuleRequest,
}

/// Body of `POST /project/{id}/deploymentRule` and of its edit.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProjectDeploymentRuleRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    pub mode: EnvironmentMode,
    pub cluster_id: Uuid,
    /// `?` stands for one character, `*` for any number: the names of the new environments it
    /// applies to (any, when empty).
    #[serde(default)]
    pub wildcard: String,
    #[serde(flatten)]
    pub schedule: Schedule,
}

impl ProjectDeploymentRuleRequest {
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        violations.check(crate::glob::pattern("wildcard", &self.wildcard));
        self.schedule.check(&mut violations);
        violations.into_result()
    }
}

/// A project's deployment rule as answered.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProjectDeploymentRule {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default)]
    #[serde(with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    #[serde(flatten)]
    pub rule: ProjectDeploymentRuleRequest,
    /// Its place in the project's order, from 0: the first that matches a new environment
    /// applies.
    #[serde(default)]
    pub priority_index: i64,
}

/// Body of `PUT /project/{id}/deploymentRule/order`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProjectDeploymentRulesOrder {
    #[serde(default)]
    pub project_deployment_rule_ids_in_order: Vec<Uuid>,
}

/// Whether `name` matches `wildcard` (`crate::glob`); an empty wildcard matches every name.
pub fn wildcard_matches(wildcard: &str, name: &str) -> bool {
    let wildcard = wildcard.trim();
    wildcard.is_empty() || crate::glob::matches(wildcard, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_of_day_reads_as_written_on_a_24_hour_clock() {
        let time = |h, m| NaiveTime::from_hms_opt(h, m, 0);
        assert_eq!(read_clock_text(" 08:30 "), time(8, 30));
        assert_eq!(read_clock_text("8:05"), time(8, 5));
        assert_eq!(read_clock_text("23:59"), time(23, 59));
        for wrong in [
            "24:00", "12:60", "12", "12:5:0", "+1:00", "08:", ":30", "008:00", "ab:cd",
        ] {
            assert_eq!(read_clock_text(wrong), None, "{wrong}");
        }
        assert_eq!(
            clock_text(NaiveTime::from_hms_opt(7, 5, 0).unwrap()),
            "07:05"
        );
    }

    #[test]
    fn an_empty_wildcard_matches_every_name() {
        assert!(wildcard_matches("", "anything"));
        assert!(wildcard_matches(" ", "anything"));
        assert!(wildcard_matches("feat-*", "feat-login"));
        assert!(!wildcard_matches("feat-*", "hotfix-1"));
    }

    #[test]
    fn times_of_day_are_read_from_the_documents_date_times() {
        let at: DateTime<Utc> = "1970-01-01T08:30:00.000Z".parse().unwrap();
        assert_eq!(time_of_day(at), NaiveTime::from_hms_opt(8, 30, 0).unwrap());
        assert_eq!(at_time_of_day(time_of_day(at)), at);
    }
}
