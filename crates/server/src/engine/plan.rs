//! What each action does, step by step, and how long each step takes in real life.

use platform_api::{ServiceState, ServiceType, StepName, SubAction};

use crate::store::action::Action;

/// One step of an action: the service shows `state` while the step runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannedStep {
    pub name: StepName,
    pub state: ServiceState,
    /// Seconds the step takes at engine speed 1.
    pub seconds: f64,
}

/// How long an action may run, at engine speed 1, before the engine stops it in error: the
/// service's own `timeout_sec` when its kind has one (helm charts, terraform services) and it is
/// set, else half an hour.
pub fn timeout_seconds(kind: ServiceType, configured: Option<i64>) -> f64 {
    const DEFAULT: f64 = 1800.0;
    match (kind, configured) {
        (ServiceType::Helm | ServiceType::Terraform, Some(seconds)) if seconds > 0 => {
            seconds as f64
        }
        _ => DEFAULT,
    }
}

/// A number of seconds as a person reads it: "90 s".
pub fn seconds_in_words(seconds: f64) -> String {
    format!("{} s", seconds.round() as i64)
}

/// Seconds a request waits in the queue before its first step, at engine speed 1.
pub const QUEUE_SECONDS: f64 = 1.0;

const fn step(name: StepName, state: ServiceState, seconds: f64) -> PlannedStep {
    PlannedStep {
        name,
        state,
        seconds,
    }
}

/// Deploying a service built from git: build, then deploy, then route.
pub const DEPLOY_FROM_GIT: &[PlannedStep] = &[
    step(
        StepName::RegistryCreateRepository,
        ServiceState::Building,
        2.0,
    ),
    step(StepName::GitClone, ServiceState::Building, 3.0),
    step(StepName::BuildQueueing, ServiceState::Building, 2.0),
    step(StepName::Build, ServiceState::Building, 20.0),
    step(StepName::DeploymentQueueing, ServiceState::Deploying, 2.0),
    step(StepName::Deployment, ServiceState::Deploying, 10.0),
    step(StepName::RouterDeployment, ServiceState::Deploying, 3.0),
];

/// Deploying a service run from a registry's image: mirror it, then deploy and route.
pub const DEPLOY_FROM_IMAGE: &[PlannedStep] = &[
    step(StepName::MirrorImage, ServiceState::Building, 4.0),
    step(StepName::DeploymentQueueing, ServiceState::Deploying, 2.0),
    step(StepName::Deployment, ServiceState::Deploying, 10.0),
    step(StepName::RouterDeployment, ServiceState::Deploying, 3.0),
];

/// Deploying a database: no image of ours to build or route.
pub const DEPLOY_DATABASE: &[PlannedStep] = &[
    step(StepName::DeploymentQueueing, ServiceState::Deploying, 2.0),
    step(StepName::Deployment, ServiceState::Deploying, 25.0),
];

/// Deploying a job: build it, then run it to its end.
pub const DEPLOY_JOB: &[PlannedStep] = &[
    step(StepName::Build, ServiceState::Building, 10.0),
    step(StepName::DeploymentQueueing, ServiceState::Deploying, 2.0),
    step(StepName::Executing, ServiceState::Executing, 8.0),
];

/// Deploying a helm chart: install or upgrade the release.
pub const DEPLOY_HELM: &[PlannedStep] = &[
    step(StepName::DeploymentQueueing, ServiceState::Deploying, 2.0),
    step(StepName::Deployment, ServiceState::Deploying, 12.0),
];

/// Planning a terraform service: fetch its files, `init` and `plan`.
pub const TERRAFORM_PLAN: &[PlannedStep] = &[
    step(StepName::GitClone, ServiceState::Building, 3.0),
    step(StepName::Build, ServiceState::Building, 12.0),
];

/// Deploying a terraform service: plan, then `apply`.
pub const TERRAFORM_PLAN_AND_APPLY: &[PlannedStep] = &[
    step(StepName::GitClone, ServiceState::Building, 3.0),
    step(StepName::Build, ServiceState::Building, 12.0),
    step(StepName::DeploymentQueueing, ServiceState::Deploying, 2.0),
    step(StepName::Deployment, ServiceState::Deploying, 25.0),
];

/// Restarting: a rolling restart of the running instances.
pub const RESTART: &[PlannedStep] = &[step(StepName::Deployment, ServiceState::Restarting, 8.0)];

/// Stopping: scaling to zero.
pub const STOP: &[PlannedStep] = &[step(StepName::Deployment, ServiceState::Stopping, 5.0)];

/// Uninstalling: deleting compute and data, keeping the configuration.
pub const UNINSTALL: &[PlannedStep] = &[step(StepName::Deployment, ServiceState::Deleting, 6.0)];

/// The step of a deployment of `kind` that routes the service's custom domains, if it has any.
pub fn routing_step(kind: ServiceType) -> Option<StepName> {
    match kind {
        ServiceType::Application | ServiceType::Container => Some(StepName::RouterDeployment),
        ServiceType::Helm => Some(StepName::Deployment),
        _ => None,
    }
}

/// The steps of `action` (in its variant `sub_action`) on a service of `kind`.
pub fn steps(action: Action, kind: ServiceType, sub_action: SubAction) -> &'static [PlannedStep] {
    match (action, kind) {
        (Action::Deploy, ServiceType::Terraform) if sub_action == SubAction::TerraformPlanOnly => {
            TERRAFORM_PLAN
        }
        (Action::Deploy, ServiceType::Terraform) => TERRAFORM_PLAN_AND_APPLY,
        (Action::Deploy, ServiceType::Container) => DEPLOY_FROM_IMAGE,
        (Action::Deploy, ServiceType::Database) => DEPLOY_DATABASE,
        (Action::Deploy, ServiceType::Job) => DEPLOY_JOB,
        (Action::Deploy, ServiceType::Helm) => DEPLOY_HELM,
        (Action::Deploy, ServiceType::Application | ServiceType::Other(_)) => DEPLOY_FROM_GIT,
        (Action::Restart, _) => RESTART,
        (Action::Stop, _) => STOP,
        (Action::Uninstall, _) => UNINSTALL,
    }
}

/// Queueing steps wait for a worker; the others compute.
pub fn is_computing(name: StepName) -> bool {
    !matches!(name, StepName::BuildQueueing | StepName::DeploymentQueueing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deploy_builds_before_deploying() {
        let states: Vec<_> = DEPLOY_FROM_GIT.iter().map(|s| s.state).collect();
        let first_deploying = states
            .iter()
            .position(|s| *s == ServiceState::Deploying)
            .unwrap();
        assert!(states[..first_deploying]
            .iter()
            .all(|s| *s == ServiceState::Building));
        assert!(states[first_deploying..]
            .iter()
            .all(|s| *s == ServiceState::Deploying));
        assert!(DEPLOY_FROM_GIT.iter().all(|s| s.seconds > 0.0));
    }
}
