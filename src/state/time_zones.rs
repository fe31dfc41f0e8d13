//! Time zones as the browser knows them (its own copy of the IANA database, through `Intl`):
//! their names, for a field's suggestions, and the wall clock in one of them, from which a cron
//! expression's next times there are found (`platform_api::cron`). Written here because the
//! console carries no time zone database of its own: the browser's costs nothing.

use chrono::{NaiveDate, NaiveDateTime};
use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// The browser's `Intl`.
fn intl() -> Result<JsValue, JsValue> {
    Reflect::get(&js_sys::global(), &"Intl".into())
}

/// Every zone the browser knows, by name; none when it cannot list them.
pub fn browser_zones() -> Vec<String> {
    let listed = intl()
        .and_then(|intl| {
            let list = Reflect::get(&intl, &"supportedValuesOf".into())?;
            list.dyn_into::<Function>()?
                .call1(&intl, &"timeZone".into())
        })
        .ok()
        .and_then(|zones| zones.dyn_into::<Array>().ok());
    listed
        .map(|zones| zones.iter().filter_map(|zone| zone.as_string()).collect())
        .unwrap_or_default()
}

/// The date and time it is now on a wall clock of `zone`; `None` for a zone the browser does
/// not know.
pub fn wall_clock_in(zone: &str) -> Option<NaiveDateTime> {
    let options = Object::new();
    for (key, value) in [
        ("timeZone", zone),
        ("hourCycle", "h23"),
        ("year", "numeric"),
        ("month", "2-digit"),
        ("day", "2-digit"),
        ("hour", "2-digit"),
        ("minute", "2-digit"),
        ("second", "2-digit"),
    ] {
        Reflect::set(&options, &key.into(), &value.into()).ok()?;
    }
    let locales = Array::of1(&JsValue::from_str("en-US"));
    let constructor = Reflect::get(&intl().ok()?, &"DateTimeFormat".into())
        .ok()?
        .dyn_into::<Function>()
        .ok()?;
    // An unknown zone throws a RangeError: no wall clock there.
    let format: js_sys::Intl::DateTimeFormat =
        Reflect::construct(&constructor, &Array::of2(&locales, &options))
            .ok()?
            .unchecked_into();
    let parts = format.format_to_parts(&js_sys::Date::new_0());
    let mut text = String::new();
    for part in parts.iter() {
        let kind = Reflect::get(&part, &"type".into()).ok()?.as_string()?;
        let value = Reflect::get(&part, &"value".into()).ok()?.as_string()?;
        if kind != "literal" && kind != "dayPeriod" {
            text.push_str(&value);
            text.push(' ');
        }
    }
    // month day year hour minute second, in en-US order. Read as numbers rather than with
    // chrono's patterns, whose parser and tables the console would carry.
    let numbers: Vec<u32> = text
        .split_whitespace()
        .map(|number| number.parse().ok())
        .collect::<Option<_>>()?;
    let [month, day, year, hour, minute, second] = numbers[..] else {
        return None;
    };
    NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month, day)?
        .and_hms_opt(hour, minute, second)
}
