//! Answers kept in memory while the database stays as they were read from: each is stored with
//! the count of commits that had landed before it was read (`db::Commits`), and served again
//! only while that count stands. What is kept is what one state of the database answered: the
//! next commit drops it all.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::Mutex;

use crate::db::Commits;

/// The most answers a `Fresh` keeps, and the most bytes they may weigh together; past either,
/// what is asked is read each time until the next commit empties it.
const MOST_KEPT: usize = 1024;
const MOST_KEPT_BYTES: usize = 32 * 1024 * 1024;

/// What a kept value holds in memory, about.
pub trait Weigh {
    fn weight(&self) -> usize;
}

#[cfg(test)]
impl Weigh for usize {
    fn weight(&self) -> usize {
        *self
    }
}

#[cfg(test)]
impl Weigh for i32 {
    fn weight(&self) -> usize {
        4
    }
}

/// What a read gives: the answer, and whether it may be served again while the database stays
/// as it is.
pub struct Read<V> {
    pub value: V,
    pub keep: bool,
}

pub struct Fresh<K, V> {
    commits: Commits,
    entries: Mutex<Entries<K, V>>,
}

struct Entries<K, V> {
    by_key: HashMap<K, Entry<V>>,
    /// What the entries weigh together.
    bytes: usize,
}

struct Entry<V> {
    commits: u64,
    value: V,
}

impl<K: Eq + Hash, V: Clone + Weigh> Fresh<K, V> {
    pub fn new(commits: Commits) -> Self {
        Self {
            commits,
            entries: Mutex::new(Entries {
                by_key: HashMap::new(),
                bytes: 0,
            }),
        }
    }

    /// The answer kept for `key`, or the one `read` reads (kept if it says so).
    pub async fn get_or_read<E>(
        &self,
        key: K,
        read: impl Future<Output = Result<Read<V>, E>>,
    ) -> Result<V, E> {
        if let Some(value) = self.get(&key) {
            return Ok(value);
        }
        let commits = self.reading();
        let Read { value, keep } = read.await?;
        if keep {
            self.keep(key, commits, value.clone());
        }
        Ok(value)
    }

    /// The answer kept for `key`, if the database has not changed since it was read.
    fn get(&self, key: &K) -> Option<V> {
        let now = self.commits.count();
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries
            .by_key
            .get(key)
            .filter(|entry| entry.commits == now)
            .map(|entry| entry.value.clone())
    }

    /// The count of commits to read at: pass it to `keep` with what was read.
    fn reading(&self) -> u64 {
        self.commits.count()
    }

    /// Keeps `value`, read for `key` when the count of commits was `commits`; answers read at an
    /// older count are dropped, so that the memory held stays what one state of the database
    /// answered, and at most `MOST_KEPT` of them weighing at most `MOST_KEPT_BYTES` (some keys
    /// are the client's to choose: a page of projects is any limit and offset).
    fn keep(&self, key: K, commits: u64, value: V) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let Entries { by_key, bytes } = &mut *entries;
        by_key.retain(|kept, entry| entry.commits == commits && *kept != key);
        *bytes = by_key.values().map(|entry| entry.value.weight()).sum();
        let room = by_key.len() < MOST_KEPT && *bytes + value.weight() <= MOST_KEPT_BYTES;
        if room && self.commits.count() == commits {
            *bytes += value.weight();
            by_key.insert(key, Entry { commits, value });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_served_until_the_next_commit() {
        let commits = Commits::default();
        let fresh = Fresh::new(commits.clone());
        let at = fresh.reading();
        fresh.keep("env", at, 1);
        assert_eq!(fresh.get(&"env"), Some(1));
        commits.committed();
        assert_eq!(fresh.get(&"env"), None);
    }

    #[test]
    fn an_answer_read_before_a_commit_is_not_kept() {
        let commits = Commits::default();
        let fresh = Fresh::new(commits.clone());
        let at = fresh.reading();
        commits.committed();
        fresh.keep("env", at, 1);
        assert_eq!(fresh.get(&"env"), None);
    }

    #[test]
    fn no_more_than_the_most_kept_are_kept() {
        let fresh = Fresh::new(Commits::default());
        let at = fresh.reading();
        for key in 0..=MOST_KEPT {
            fresh.keep(key, at, key);
        }
        assert_eq!(fresh.get(&0), Some(0));
        assert_eq!(fresh.get(&(MOST_KEPT - 1)), Some(MOST_KEPT - 1));
        assert_eq!(
            fresh.get(&MOST_KEPT),
            None,
            "one past the most is read again"
        );
        fresh.keep(0, at, 7);
        assert_eq!(fresh.get(&0), Some(7), "a kept answer is still replaced");
    }

    #[test]
    fn no_more_bytes_than_the_most_are_kept() {
        let fresh = Fresh::new(Commits::default());
        let at = fresh.reading();
        let half = MOST_KEPT_BYTES / 2 + 1;
        fresh.keep(0, at, half);
        fresh.keep(1, at, half);
        assert_eq!(fresh.get(&0), Some(half));
        assert_eq!(fresh.get(&1), None, "past the bytes, it is read again");
        fresh.keep(0, at, 10);
        fresh.keep(1, at, half);
        assert_eq!(
            fresh.get(&1),
            Some(half),
            "a replaced answer's weight is let go"
        );
    }
}
