//! Work that would hold an async worker (evaluating a query, parsing what a caller or a
//! repository hands the server, reading a repository with git) run on a thread of its own: a
//! bounded number at once, each with a stack of known size, at a priority below the server's
//! workers, its memory given back when it ends. A caller waits for a turn and for the answer
//! within a deadline, and is answered busy past it; the work's own bounds (sizes checked before
//! it starts) make it end soon after.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

/// A pool of turns: how many pieces of work run at once, with what stack and priority.
pub struct Offload {
    turns: Arc<Semaphore>,
    stack: usize,
    name: &'static str,
    priority: Priority,
}

/// How the work's threads yield to the server's.
#[derive(Clone, Copy)]
pub enum Priority {
    /// Only the CPU the server leaves (`SCHED_IDLE`): work that may wait as long as requests
    /// come (a query's evaluation, which has its own deadline).
    Idle,
    /// The lowest share of the CPU, but a share (nice 19): work a request waits for and that
    /// must end even while the machine is busy (parsing its body).
    Lowest,
}

/// No turn came, or the answer did not, within the deadline.
#[derive(Debug, PartialEq)]
pub struct Busy;

impl Offload {
    pub fn new(name: &'static str, at_once: usize, stack: usize, priority: Priority) -> Self {
        Offload {
            turns: Arc::new(Semaphore::new(at_once)),
            stack,
            name,
            priority,
        }
    }

    /// `work` on a thread of its own once a turn is free. The turn is the thread's until its
    /// work ends, whether or not its caller still waits: a caller who goes away frees no CPU
    /// that its work still takes.
    pub async fn run<T: Send + 'static>(
        &self,
        deadline: Duration,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Busy> {
        let until = Instant::now() + deadline;
        let turn = tokio::time::timeout(deadline, self.turns.clone().acquire_owned())
            .await
            .map_err(|_| Busy)?
            .map_err(|_| Busy)?;
        let (answer, answered) = tokio::sync::oneshot::channel();
        let priority = self.priority;
        std::thread::Builder::new()
            .name(self.name.to_string())
            .stack_size(self.stack)
            .spawn(move || {
                yield_to_the_server(priority);
                let _ = answer.send(work());
                give_back_memory();
                drop(turn);
            })
            .map_err(|_| Busy)?;
        let left = until.saturating_duration_since(Instant::now());
        tokio::time::timeout(left, answered)
            .await
            .map_err(|_| Busy)?
            .map_err(|_| Busy)
    }
}

/// Lowers the calling thread's priority. `Idle` puts it in the idle scheduling class
/// (`SCHED_IDLE`): the work takes the CPU the server's workers leave, and a request waking up
/// preempts it at once, so that cheap reads keep their pace while it runs (at nice 10 alone, two
/// evaluations on two cores still quadrupled a cheap read's p99); but on a machine kept busy it
/// may wait without end. `Lowest` (nice 19) keeps a small share. Lowering one's own priority
/// needs no privilege; where the system refuses, the thread is niced instead, or keeps its
/// priority.
fn yield_to_the_server(priority: Priority) {
    // SAFETY: both calls name the calling thread (id 0, or its own id) and change only its
    // scheduling; `param` outlives the call.
    unsafe {
        let param = libc::sched_param { sched_priority: 0 };
        let idle = matches!(priority, Priority::Idle)
            && libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) == 0;
        if !idle {
            let thread = libc::syscall(libc::SYS_gettid) as libc::id_t;
            libc::setpriority(libc::PRIO_PROCESS, thread, 19);
        }
    }
}

/// Returns what the work freed to the system: the allocator keeps a thread's freed memory in
/// its arena otherwise, and the process's resident memory would stay at its largest piece of
/// work.
fn give_back_memory() {
    // SAFETY: `malloc_trim` only releases free memory of the allocator's arenas.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_a_few_at_a_time_and_a_late_answer_is_busy() {
        let offload = Offload::new("test", 1, 1024 * 1024, Priority::Lowest);
        assert_eq!(offload.run(Duration::from_secs(5), || 6 * 7).await, Ok(42));
        let slow = offload.run(Duration::from_millis(50), || {
            std::thread::sleep(Duration::from_millis(400));
        });
        assert_eq!(slow.await, Err(Busy));
        // The slow work still holds the only turn: the next caller waits for it, past its own
        // deadline.
        let waiting = offload.run(Duration::from_millis(50), || ()).await;
        assert_eq!(waiting, Err(Busy));
        assert_eq!(offload.run(Duration::from_secs(5), || 1).await, Ok(1));
    }
}
