//! Environments started and stopped on time: for each environment whose deployment rule has
//! `auto_stop` on, every round acts on the latest start or stop of its schedule since the last
//! round (on its weekdays, at its times on the wall clock of its IANA time zone): a stop stops
//! what runs, a start deploys again the version each service ran. A start or stop made by hand
//! between two times of the schedule is left alone until the next time. An environment busy at
//! its time is acted on at the next round. `once` takes the time it is, so that tests set the
//! clock.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Datelike, NaiveDate, TimeZone, Utc};
use platform_api::audit::Origin;
use platform_api::{clock_text, time_of_day, Schedule, Weekday};
use sqlx::SqlitePool;
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::engine::admission::AskedBy;
use crate::engine::environment::OnEachService;
use crate::engine::Engine;
use crate::rounds;
use crate::store::action::Action;
use crate::store::deployment_rules as store;
use crate::store::scope::{self, Scope};

/// What a schedule does at one of its times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Time {
    Start,
    Stop,
}

/// The latest start or stop of `schedule` after `since` and at or before `now`.
pub fn latest_time(
    schedule: &Schedule,
    since: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Option<(DateTime<Utc>, Time)> {
    let zone: chrono_tz::Tz = schedule.timezone.parse().unwrap_or(chrono_tz::UTC);
    let (start, stop) = (
        time_of_day(schedule.start_time),
        time_of_day(schedule.stop_time),
    );
    let local_day = |at: DateTime<Utc>| at.with_timezone(&zone).date_naive();
    // A week back at most: an older time is long past.
    let first = local_day(since.max(now - chrono::Duration::days(8))) - chrono::Duration::days(1);
    let last = local_day(now);
    let at = |day: NaiveDate, time| {
        zone.from_local_datetime(&day.and_time(time))
            .earliest()
            .map(|at| at.with_timezone(&Utc))
    };
    first
        .iter_days()
        .take_while(|day| *day <= last)
        .filter(|day| schedule.weekdays.contains(&Weekday::of(day.weekday())))
        .flat_map(|day| {
            // A stop earlier in the day than the start is the next day's.
            let stop_day = if stop > start {
                day
            } else {
                day.succ_opt().unwrap_or(day)
            };
            [
                at(day, start).map(|at| (at, Time::Start)),
                at(stop_day, stop).map(|at| (at, Time::Stop)),
            ]
        })
        .flatten()
        .filter(|(at, _)| *at > since && *at <= now)
        .max_by_key(|(at, _)| *at)
}

/// One round at `now`; how many environments it started or stopped.
pub async fn once(
    engine: &Arc<Engine>,
    db: &SqlitePool,
    now: DateTime<Utc>,
) -> anyhow::Result<usize> {
    let mut acted = 0;
    for scheduled in store::auto_stopping(db).await? {
        let (environment_id, organization_id, schedule, last) = scheduled.schedule()?;
        let Some(last) = last else {
            // Never looked at: the schedule counts from now.
            let mut tx = engine.begin().await?;
            store::checked_until(&mut tx, environment_id, now).await?;
            tx.commit().await?;
            continue;
        };
        // Nothing written while no time of the schedule has come: the next round looks from
        // `last` again.
        if let Some((_, time)) = latest_time(&schedule, last, now) {
            let ids = (environment_id, organization_id);
            if act(engine, ids, (&schedule, time), now).await? {
                acted += 1;
            }
        }
    }
    Ok(acted)
}

/// Starts or stops the environment as its schedule asks, and notes in the same write that the
/// schedule was acted on until `now`; false while an action runs in it (the next round acts).
async fn act(
    engine: &Arc<Engine>,
    (environment_id, organization_id): (Uuid, Uuid),
    (schedule, time): (&Schedule, Time),
    now: DateTime<Utc>,
) -> anyhow::Result<bool> {
    let mut tx = engine.begin().await?;
    if scope::ensure_idle(&mut tx, Scope::Environment(environment_id))
        .await
        .is_err()
    {
        return Ok(false);
    }
    let what = match time {
        Time::Start => OnEachService::Redeploy,
        Time::Stop => OnEachService::Run(Action::Stop),
    };
    let who = format!(
        "schedule {}–{} ({})",
        clock_text(time_of_day(schedule.start_time)),
        clock_text(time_of_day(schedule.stop_time)),
        schedule.timezone
    );
    let asked_by = AskedBy {
        name: &who,
        origin: Origin::PlatformInternal,
    };
    let queued = match engine
        .queue_on_environment(&mut tx, environment_id, what, asked_by)
        .await
    {
        Ok(queued) => queued,
        // Nothing to start or to stop: already as the schedule wants it.
        Err(nothing) if nothing.status() == axum::http::StatusCode::CONFLICT => Vec::new(),
        Err(error) => return Err(error.into()),
    };
    if !queued.is_empty() {
        let target = Target::environment(&mut tx, environment_id).await?;
        let change = Change::new(what.event_type(), target);
        audit::record_as(
            &mut tx,
            (organization_id, &who),
            Origin::PlatformInternal,
            change,
        )
        .await?;
    }
    store::checked_until(&mut tx, environment_id, now).await?;
    tx.commit().await?;
    for deployment_id in queued {
        engine.start(deployment_id);
    }
    Ok(true)
}

/// Runs `once` every `every` at the time it is, while the engine takes work.
pub fn start(engine: Arc<Engine>, db: SqlitePool, every: Duration) {
    rounds::every(engine, every, "the schedules' round", move |engine| {
        let db = db.clone();
        async move { once(&engine, &db, Utc::now()).await.map(drop) }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use platform_api::at_time_of_day;

    fn schedule(zone: &str, start: (u32, u32), stop: (u32, u32), days: &[Weekday]) -> Schedule {
        let time = |(h, m)| at_time_of_day(chrono::NaiveTime::from_hms_opt(h, m, 0).unwrap());
        Schedule {
            auto_stop: true,
            timezone: zone.into(),
            start_time: time(start),
            stop_time: time(stop),
            weekdays: days.to_vec(),
        }
    }

    fn utc(text: &str) -> DateTime<Utc> {
        text.parse().unwrap()
    }

    #[test]
    fn the_latest_time_since_the_last_round_is_acted_on() {
        let weekdays = [
            Weekday::Monday,
            Weekday::Tuesday,
            Weekday::Wednesday,
            Weekday::Thursday,
            Weekday::Friday,
        ];
        let paris = schedule("Europe/Paris", (8, 0), (19, 0), &weekdays);
        // Wednesday 25 November 2026: Paris is an hour ahead of UTC.
        let since = utc("2026-11-25T17:00:00Z");
        assert_eq!(
            latest_time(&paris, since, utc("2026-11-25T17:59:00Z")),
            None
        );
        assert_eq!(
            latest_time(&paris, since, utc("2026-11-25T18:00:30Z")),
            Some((utc("2026-11-25T18:00:00Z"), Time::Stop))
        );
        assert_eq!(
            latest_time(
                &paris,
                utc("2026-11-25T18:01:00Z"),
                utc("2026-11-26T07:05:00Z")
            ),
            Some((utc("2026-11-26T07:00:00Z"), Time::Start))
        );
        // Friday's stop, then no start before Monday.
        assert_eq!(
            latest_time(
                &paris,
                utc("2026-11-27T17:00:00Z"),
                utc("2026-11-30T06:00:00Z")
            ),
            Some((utc("2026-11-27T18:00:00Z"), Time::Stop))
        );
    }

    #[test]
    fn a_night_shift_stops_the_next_morning() {
        let nights = schedule("Etc/UTC", (22, 0), (6, 0), &[Weekday::Saturday]);
        // Saturday 28 November 2026, 22:00, to Sunday 06:00.
        assert_eq!(
            latest_time(
                &nights,
                utc("2026-11-28T23:00:00Z"),
                utc("2026-11-29T06:30:00Z")
            ),
            Some((utc("2026-11-29T06:00:00Z"), Time::Stop))
        );
    }
}
