//! The fields of a schedule (an environment's, a project rule's): auto-stop, the time zone (the
//! browser's zones suggested), the start and stop times, the weekdays.

use leptos::prelude::*;
use platform_api::{
    at_time_of_day, clock_text, read_clock_text, time_of_day, FieldError, Schedule, Weekday,
    WireEnum,
};

use super::form_field::{CheckboxField, CheckboxGroup, TextField};
use crate::state::time_zones::browser_zones;

/// A schedule being edited: each field as a person types it.
#[derive(Clone, Copy)]
pub struct ScheduleInput {
    pub auto_stop: RwSignal<bool>,
    pub timezone: RwSignal<String>,
    /// `HH:MM`, on a 24-hour clock.
    pub start: RwSignal<String>,
    pub stop: RwSignal<String>,
    pub weekdays: RwSignal<Vec<Weekday>>,
}

impl ScheduleInput {
    pub fn of(schedule: &Schedule) -> Self {
        let time = |at| clock_text(time_of_day(at));
        ScheduleInput {
            auto_stop: RwSignal::new(schedule.auto_stop),
            timezone: RwSignal::new(schedule.timezone.clone()),
            start: RwSignal::new(time(schedule.start_time)),
            stop: RwSignal::new(time(schedule.stop_time)),
            weekdays: RwSignal::new(schedule.weekdays.clone()),
        }
    }

    /// The schedule typed, or the times that do not read, by field.
    pub fn read(&self) -> Result<Schedule, Vec<FieldError>> {
        let time = |field: &str, text: String| {
            read_clock_text(&text)
                .map(at_time_of_day)
                .ok_or_else(|| FieldError::new(field, "must be a time of day, e.g. 08:00"))
        };
        match (
            time("start_time", self.start.get_untracked()),
            time("stop_time", self.stop.get_untracked()),
        ) {
            (Ok(start_time), Ok(stop_time)) => Ok(Schedule {
                auto_stop: self.auto_stop.get_untracked(),
                timezone: self.timezone.get_untracked().trim().to_string(),
                start_time,
                stop_time,
                weekdays: self.weekdays.get_untracked(),
            }),
            (start, stop) => Err([start.err(), stop.err()].into_iter().flatten().collect()),
        }
    }
}

/// The schedule in a few words: "runs Monday, Friday from 08:00 to 19:00 (Europe/Paris)".
pub fn describe(schedule: &Schedule) -> String {
    if !schedule.auto_stop {
        return "runs until stopped".into();
    }
    let days: Vec<&str> = schedule.weekdays.iter().map(|day| day.label()).collect();
    format!(
        "runs {} from {} to {} ({})",
        days.join(", "),
        clock_text(time_of_day(schedule.start_time)),
        clock_text(time_of_day(schedule.stop_time)),
        schedule.timezone
    )
}

#[component]
pub fn ScheduleFields(input: ScheduleInput, errors: RwSignal<Vec<FieldError>>) -> impl IntoView {
    let days: Vec<(Weekday, String)> = Weekday::ALL
        .iter()
        .map(|day| (*day, day.label().to_string()))
        .collect();
    view! {
        <CheckboxField label="Start and stop on this schedule" name="auto_stop" checked=input.auto_stop
            hint="Outside these days and times the environment is stopped; it starts again at the start time."/>
        <div class="form-grid">
            <TextField label="Time zone" name="timezone" value=input.timezone errors required=true
                suggestions=browser_zones() hint="The zone of the times below, e.g. Europe/Paris."/>
            <TextField label="Starts at" name="start_time" value=input.start errors required=true
                placeholder="08:00" hint="24-hour clock."/>
            <TextField label="Stops at" name="stop_time" value=input.stop errors required=true
                placeholder="19:00" hint="Earlier than the start: the next day."/>
        </div>
        <CheckboxGroup legend="On" name="weekdays" options=days chosen=input.weekdays errors/>
    }
}
