//! The advanced settings the simulated engine honours. A build longer than
//! `build.timeout_max_sec` is stopped at it, in error. The builder's resources, the update
//! strategy and the grace period of a stop have nothing here to act on (there are no machines
//! or instances): each step they would shape says in its log what it was given, as the router's
//! step says whether a client stays with one instance (sticky sessions).

use platform_api::advanced_settings::{AdvancedSettings, SettingsOf, STICKY_SESSION};
use platform_api::{ServiceType, StepName, WireEnum};
use serde_json::Value;
use sqlx::SqlitePool;
use uuid::Uuid;

use super::plan::{seconds_in_words, PlannedStep};
use crate::store::action::Action;
use crate::store::advanced_settings as store;

pub(super) struct Tuning {
    action: Action,
    settings: AdvancedSettings,
}

impl Tuning {
    /// The settings of the service an action runs on (none for a database).
    pub(super) async fn of(
        db: &SqlitePool,
        action: Action,
        kind: ServiceType,
        service_id: Uuid,
    ) -> anyhow::Result<Self> {
        let settings = match SettingsOf::service(kind) {
            Some(of) => store::all(db, of, service_id).await?,
            None => AdvancedSettings::new(),
        };
        Ok(Self { action, settings })
    }

    fn number(&self, key: &str) -> Option<i64> {
        self.settings.get(key).and_then(Value::as_i64)
    }

    fn word(&self, key: &str) -> Option<&str> {
        self.settings.get(key).and_then(Value::as_str)
    }

    /// Seconds a build may run (`build.timeout_max_sec`), for the kinds that build.
    fn build_timeout(&self) -> Option<f64> {
        self.number("build.timeout_max_sec")
            .map(|seconds| seconds as f64)
    }

    /// How long `step` runs, and why it is stopped if the build's timeout stops it.
    pub(super) fn length(&self, step: &PlannedStep) -> (f64, Option<String>) {
        match self.build_timeout() {
            Some(timeout) if step.name == StepName::Build && step.seconds > timeout => (
                timeout,
                Some(format!(
                    "{}: the build ran past build.timeout_max_sec ({}) and was stopped; \
                     raise it in the service's advanced settings.",
                    step.name.label(),
                    seconds_in_words(timeout)
                )),
            ),
            _ => (step.seconds, None),
        }
    }

    /// What the step was given by the settings, for its log, if they shape it.
    pub(super) fn note(&self, step: &PlannedStep) -> Option<String> {
        match (self.action, step.name) {
            (Action::Deploy, StepName::Build) => {
                let cpu = self.number("build.cpu_max_in_milli")?;
                let ram = self.number("build.ram_max_in_gib")?;
                let timeout = self.build_timeout()?;
                Some(format!(
                    "Build: given {cpu}m CPU and {ram} GiB of memory, stopped after {} \
                     (advanced settings).",
                    seconds_in_words(timeout)
                ))
            }
            (Action::Deploy | Action::Restart, StepName::Deployment) => {
                match self.word("deployment.update_strategy.type")? {
                    "Recreate" => Some(
                        "Deployment: Recreate: the running instances stop before the new ones \
                         start (advanced settings)."
                            .to_string(),
                    ),
                    _ => {
                        let prefix = "deployment.update_strategy.rolling_update";
                        let unavailable =
                            self.number(&format!("{prefix}.max_unavailable_percent"))?;
                        let surge = self.number(&format!("{prefix}.max_surge_percent"))?;
                        Some(format!(
                            "Deployment: RollingUpdate, at most {unavailable}% of the instances \
                             unavailable and {surge}% more at a time (advanced settings)."
                        ))
                    }
                }
            }
            // Said only when on: by default a request goes to any instance.
            (Action::Deploy, StepName::RouterDeployment) => self
                .settings
                .get(STICKY_SESSION)
                .and_then(Value::as_bool)
                .filter(|sticky| *sticky)
                .map(|_| {
                    "Router deployment: sticky sessions: each client stays with the instance it \
                     first reached (advanced settings)."
                        .to_string()
                }),
            (Action::Stop | Action::Uninstall, StepName::Deployment) => {
                let grace = self.number("deployment.termination_grace_period_seconds")?;
                Some(format!(
                    "Stopping: each instance is given {grace} s to stop before it is killed \
                     (advanced settings)."
                ))
            }
            _ => None,
        }
    }
}
