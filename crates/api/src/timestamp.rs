//! Timestamps on the wire: RFC 3339 (the document's `date-time`), read with chrono's strict RFC
//! 3339 reader. chrono's own `Deserialize` reads a relaxed form through its general pattern
//! parser, which the console carried to every signed-in page for forms no API sends. Written
//! as chrono writes them. A field takes it with `#[serde(with = "crate::timestamp")]`, or
//! `crate::timestamp::option` (with `default`) where it may be absent; a day alone (`date`)
//! with `crate::timestamp::day`.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An RFC 3339 date and time, in UTC whatever offset it was written with.
pub fn read(text: &str) -> Result<DateTime<Utc>, chrono::ParseError> {
    DateTime::parse_from_rfc3339(text).map(|at| at.with_timezone(&Utc))
}

pub fn serialize<S: Serializer>(at: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
    at.serialize(serializer)
}

pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<DateTime<Utc>, D::Error> {
    let text = String::deserialize(deserializer)?;
    read(&text).map_err(serde::de::Error::custom)
}

/// A timestamp that may be absent or `null`.
pub mod option {
    use chrono::{DateTime, Utc};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::timestamp::read;

    pub fn serialize<S: Serializer>(
        at: &Option<DateTime<Utc>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        at.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<DateTime<Utc>>, D::Error> {
        Option::<String>::deserialize(deserializer)?
            .map(|text| read(&text).map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// A day, `2026-12-07` (RFC 3339's `full-date`), that may be absent or `null`. Read by hand:
/// chrono reads a day only through its pattern parser.
pub mod day {
    use chrono::NaiveDate;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn read(text: &str) -> Option<NaiveDate> {
        let [year, month, day] = <[&str; 3]>::try_from(text.split('-').collect::<Vec<_>>()).ok()?;
        let number = |digits: &str, length: usize| {
            (digits.len() == length && digits.bytes().all(|byte| byte.is_ascii_digit()))
                .then(|| digits.parse::<u32>().ok())
                .flatten()
        };
        NaiveDate::from_ymd_opt(
            i32::try_from(number(year, 4)?).ok()?,
            number(month, 2)?,
            number(day, 2)?,
        )
    }

    pub fn serialize<S: Serializer>(
        day: &Option<NaiveDate>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        day.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<NaiveDate>, D::Error> {
        Option::<String>::deserialize(deserializer)?
            .map(|text| {
                read(&text).ok_or_else(|| {
                    serde::de::Error::custom(format!("{text:?} is not a day written YYYY-MM-DD"))
                })
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    /// What chrono's own reader makes of `text`, and ours.
    fn both(text: &str) -> (Option<DateTime<Utc>>, Option<DateTime<Utc>>) {
        (text.parse::<DateTime<Utc>>().ok(), read(text).ok())
    }

    #[test]
    fn rfc_3339_reads_as_chrono_reads_it() {
        for text in [
            "2026-12-07T04:00:00Z",
            "2026-12-07T04:00:00.123Z",
            "2026-12-07T04:00:00.123456789Z",
            "2026-12-07T04:00:00.1234567891Z",
            "2026-12-07t04:00:00z",
            "2026-12-07 04:00:00Z",
            "2026-12-07T04:00:00+02:00",
            "2026-12-07T04:00:00-05:30",
            "2016-12-31T23:59:60Z",
            "1970-01-01T00:00:00Z",
        ] {
            let (chrono, ours) = both(text);
            assert!(ours.is_some(), "{text}");
            assert_eq!(ours, chrono, "{text}");
        }
    }

    #[test]
    fn what_is_not_rfc_3339_is_refused() {
        for text in [
            "",
            "2026-12-07",
            "2026-12-07T04:00:00",
            "2026-13-07T04:00:00Z",
            "2026-02-30T04:00:00Z",
            "2026-12-07T24:00:00Z",
            "2026-12-07T04:00:00+24:00",
            "2026-12-07T04:00:00Z trailing",
            "2026-12-07T04:00Z",
            "1765080000",
        ] {
            assert_eq!(read(text).ok(), None, "{text}");
        }
    }

    #[test]
    fn a_day_reads_as_chrono_reads_it_written_in_full() {
        for text in ["2026-12-07", "2024-02-29", "0001-01-01", "9999-12-31"] {
            assert_eq!(day::read(text), text.parse::<NaiveDate>().ok(), "{text}");
            assert!(day::read(text).is_some(), "{text}");
        }
        for text in [
            "",
            "2026-12",
            "2026-12-7",
            "2026-13-07",
            "2025-02-29",
            "2026-12-07T00:00:00Z",
            "+2026-12-07",
            "2026-12-0x",
            "20261207",
        ] {
            assert_eq!(day::read(text), None, "{text}");
        }
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Stamped {
        #[serde(with = "crate::timestamp")]
        at: DateTime<Utc>,
        #[serde(default, with = "crate::timestamp::option")]
        until: Option<DateTime<Utc>>,
    }

    #[test]
    fn a_field_is_written_as_chrono_writes_it_and_read_back() {
        let at = read("2026-12-07T04:00:00.5+01:00").unwrap();
        let stamped = Stamped { at, until: None };
        let text = serde_json::to_string(&stamped).unwrap();
        assert_eq!(
            text,
            format!(
                r#"{{"at":{},"until":null}}"#,
                serde_json::to_string(&at).unwrap()
            )
        );
        assert_eq!(serde_json::from_str::<Stamped>(&text).unwrap(), stamped);
        let absent: Stamped = serde_json::from_str(r#"{"at":"2026-12-07T03:00:00.5Z"}"#).unwrap();
        assert_eq!(absent, stamped);
        let error = serde_json::from_str::<Stamped>(r#"{"at":"yesterday"}"#).unwrap_err();
        let why = read("yesterday").unwrap_err().to_string();
        assert!(error.to_string().starts_with(&why), "{error}");
    }
}
