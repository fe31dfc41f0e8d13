//! Each service's status as the environment's table and the selection's progress show it, read
//! once per answer of the polled statuses.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use leptos::prelude::*;
use platform_api::{DeploymentStatus, EnvironmentStatuses, ServiceState, Status};
use uuid::Uuid;

use crate::api::ApiError;

/// What a row shows of its service's status: a row is written again only when this changes.
#[derive(Clone, PartialEq)]
pub(super) struct RowStatus {
    pub(super) state: ServiceState,
    pub(super) deployment: DeploymentStatus,
    pub(super) last_deployed: Option<DateTime<Utc>>,
    /// The service's last action, whose log says why it failed.
    pub(super) execution_id: Option<String>,
}

impl RowStatus {
    fn of(status: &Status) -> Self {
        Self {
            state: status.state,
            deployment: status.service_deployment_status,
            last_deployed: status.last_deployment_date,
            execution_id: status.execution_id.clone(),
        }
    }

    pub(super) fn never_deployed(&self) -> bool {
        self.deployment == DeploymentStatus::NeverDeployed
    }
}

/// Each service's status at the polled statuses' last answer, read once per answer; the table
/// compares its rows with it, and the few services followed one by one (the selection's
/// progress) have a signal each, set only when their status changes.
#[derive(Clone, Copy)]
pub(super) struct RowStatuses {
    current: StoredValue<HashMap<Uuid, RowStatus>>,
    /// How many answers were read: 0 until the first.
    answers: RwSignal<u64>,
    followed: StoredValue<HashMap<Uuid, ArcRwSignal<Option<RowStatus>>>>,
}

impl RowStatuses {
    pub(super) fn follow(statuses: LocalResource<Result<EnvironmentStatuses, ApiError>>) -> Self {
        let rows = Self {
            current: StoredValue::new(HashMap::new()),
            answers: RwSignal::new(0),
            followed: StoredValue::new(HashMap::new()),
        };
        Effect::new(move |_| {
            let read = statuses.with(|answer| match answer {
                Some(Ok(answer)) => {
                    let current: HashMap<Uuid, RowStatus> = answer
                        .all()
                        .map(|status| (status.id, RowStatus::of(status)))
                        .collect();
                    rows.current.set_value(current);
                    true
                }
                Some(Err(_)) => true,
                None => false,
            });
            if !read {
                return;
            }
            let changed: Vec<_> = rows.followed.with_value(|followed| {
                rows.current.with_value(|current| {
                    followed
                        .iter()
                        .filter_map(|(id, signal)| {
                            let now = current.get(id).cloned();
                            signal
                                .with_untracked(|shown| *shown != now)
                                .then(|| (signal.clone(), now))
                        })
                        .collect()
                })
            });
            for (signal, now) in changed {
                signal.set(now);
            }
            rows.answers.update(|answers| *answers += 1);
        });
        rows
    }

    /// Makes the caller run again at each answer.
    pub(super) fn track_answers(self) {
        self.answers.track();
    }

    /// Whether the statuses have answered (well or not) at least once.
    pub(super) fn answered(self) -> bool {
        self.answers.with(|answers| *answers > 0)
    }

    pub(super) fn status(self, id: Uuid) -> Option<RowStatus> {
        self.current.with_value(|current| current.get(&id).cloned())
    }

    /// The service's status as a signal of its own (empty while unknown).
    pub(super) fn of(self, id: Uuid) -> ArcRwSignal<Option<RowStatus>> {
        let now = self.status(id);
        self.followed
            .try_update_value(|followed| {
                followed
                    .entry(id)
                    .or_insert_with(|| ArcRwSignal::new(now.clone()))
                    .clone()
            })
            .unwrap_or_else(|| ArcRwSignal::new(now))
    }
}
