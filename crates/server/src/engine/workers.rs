//! The engine's workers, shared fairly between organizations: a freed worker goes to the next
//! organization in turn that has an action waiting (round robin), each organization's actions in
//! the order they were asked for. One busy organization's hundred actions wait behind every other
//! organization's next one, not in front of them.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;
use uuid::Uuid;

pub struct Workers {
    count: usize,
    state: Mutex<State>,
}

struct State {
    free: usize,
    /// The organizations with actions waiting, in the order of their next turn.
    turns: VecDeque<Uuid>,
    /// Each organization's waiting actions, first asked first.
    waiting: HashMap<Uuid, VecDeque<Waiter>>,
}

struct Waiter {
    action: Uuid,
    /// Hands the worker to the waiting action.
    hand: oneshot::Sender<()>,
}

/// A worker held while an action runs; given to the next in turn when dropped.
pub struct Worker {
    workers: Arc<Workers>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.workers.release();
    }
}

/// Where an action waits: how many actions of its organization get a worker before it, and how
/// many of other organizations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub own_ahead: usize,
    pub others_ahead: usize,
}

impl Workers {
    pub fn new(count: usize) -> Arc<Self> {
        Arc::new(Self {
            count,
            state: Mutex::new(State {
                free: count,
                turns: VecDeque::new(),
                waiting: HashMap::new(),
            }),
        })
    }

    pub fn count(&self) -> usize {
        self.count
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A worker for `action` of `organization`, once its turn comes. Dropped while waiting (a
    /// cancel), the action leaves the line.
    pub async fn acquire(self: &Arc<Self>, organization: Uuid, action: Uuid) -> Worker {
        let handed = {
            let mut state = self.state();
            if state.free > 0 {
                state.free -= 1;
                return Worker {
                    workers: self.clone(),
                };
            }
            let (hand, handed) = oneshot::channel();
            let line = state.waiting.entry(organization).or_default();
            if line.is_empty() {
                state.turns.push_back(organization);
            }
            state
                .waiting
                .get_mut(&organization)
                .expect("just added")
                .push_back(Waiter { action, hand });
            handed
        };
        let mut leaving = Leaving {
            workers: self,
            organization,
            action,
            handed: Some(handed),
        };
        // The sender lives in the line until it hands the worker: an error cannot come.
        let _ = leaving.handed.as_mut().expect("set above").await;
        leaving.handed = None;
        Worker {
            workers: self.clone(),
        }
    }

    /// A worker let go: to the next organization in turn with an action waiting, or free.
    fn release(&self) {
        let mut state = self.state();
        while let Some(organization) = state.turns.pop_front() {
            let line = state
                .waiting
                .get_mut(&organization)
                .expect("a turn has a line");
            let waiter = line.pop_front().expect("a line in turn is not empty");
            if line.is_empty() {
                state.waiting.remove(&organization);
            } else {
                state.turns.push_back(organization);
            }
            if waiter.hand.send(()).is_ok() {
                return;
            }
        }
        state.free += 1;
    }

    /// Where `action` of `organization` waits, if it waits.
    pub fn place(&self, organization: Uuid, action: Uuid) -> Option<Place> {
        let state = self.state();
        let own_ahead = state
            .waiting
            .get(&organization)?
            .iter()
            .position(|waiter| waiter.action == action)?;
        // Each round gives every organization in turn one worker: before this action's round,
        // each other organization has as many as it has waiting, up to `own_ahead`; in its
        // round, those whose turn comes first have one more.
        let mut others_ahead = 0;
        let mut before = true;
        for other in &state.turns {
            if *other == organization {
                before = false;
                continue;
            }
            let waiting = state.waiting.get(other).map_or(0, VecDeque::len);
            others_ahead += waiting.min(own_ahead) + usize::from(before && waiting > own_ahead);
        }
        Some(Place {
            own_ahead,
            others_ahead,
        })
    }

    /// Takes a waiter out of the line (its action canceled while waiting).
    fn leave(&self, organization: Uuid, action: Uuid) {
        let mut state = self.state();
        let Some(line) = state.waiting.get_mut(&organization) else {
            return;
        };
        line.retain(|waiter| waiter.action != action);
        if line.is_empty() {
            state.waiting.remove(&organization);
            state.turns.retain(|turn| *turn != organization);
        }
    }
}

/// Takes a waiter out of the line when its wait is dropped before it holds a worker; a worker
/// handed to it in the meantime goes to the next in turn.
struct Leaving<'a> {
    workers: &'a Arc<Workers>,
    organization: Uuid,
    action: Uuid,
    /// Until the wait has its worker.
    handed: Option<oneshot::Receiver<()>>,
}

impl Drop for Leaving<'_> {
    fn drop(&mut self) {
        if let Some(mut handed) = self.handed.take() {
            if handed.try_recv().is_ok() {
                self.workers.release();
            } else {
                self.workers.leave(self.organization, self.action);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn org(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    #[tokio::test]
    async fn a_freed_worker_goes_to_each_organization_in_turn() {
        let workers = Workers::new(1);
        let running = workers.acquire(org(1), Uuid::from_u128(100)).await;
        let handed = Arc::new(Mutex::new(Vec::new()));
        let mut waits = Vec::new();
        // A busy organization asks for five, then another for one.
        for (organization, action) in [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 6)] {
            let workers = workers.clone();
            let handed = handed.clone();
            waits.push(tokio::spawn(async move {
                let worker = workers.acquire(org(organization), org(action)).await;
                handed.lock().unwrap().push(action);
                drop(worker);
            }));
            tokio::task::yield_now().await;
        }
        assert_eq!(
            workers.place(org(2), org(6)),
            Some(Place {
                own_ahead: 0,
                others_ahead: 1
            }),
            "the other organization's one waits for one of the busy one's, not five"
        );
        assert_eq!(
            workers.place(org(1), org(3)),
            Some(Place {
                own_ahead: 2,
                others_ahead: 1
            })
        );
        drop(running);
        for wait in waits {
            wait.await.unwrap();
        }
        assert_eq!(*handed.lock().unwrap(), [1, 6, 2, 3, 4, 5]);
    }

    #[tokio::test]
    async fn a_wait_dropped_leaves_the_line() {
        let workers = Workers::new(1);
        let running = workers.acquire(org(1), org(10)).await;
        let waiting = {
            let workers = workers.clone();
            tokio::spawn(async move { workers.acquire(org(2), org(11)).await })
        };
        tokio::task::yield_now().await;
        assert!(workers.place(org(2), org(11)).is_some());
        waiting.abort();
        let _ = waiting.await;
        assert_eq!(workers.place(org(2), org(11)), None);
        drop(running);
        // The worker is free again: the next asks and gets it at once.
        let _next = workers.acquire(org(3), org(12)).await;
    }
}
