//! LogQL over the fleet's lines: a stream selector on the labels `observability.md` lists
//! (`qovery_com_service_id`, `qovery_com_deployment_id`, `level`, `pod`, `container`,
//! `namespace`, `app`), line filters (`|=`, `!=`, `|~`, `!~`), `count_over_time` and `rate` over
//! a range, and `sum`, `count`, `min`, `max` or `avg` by or without labels. No maintained LogQL
//! parser exists for Rust: this one is written by hand for that grammar (a recursive descent over
//! a query bounded in length, so its depth is too) and refuses the rest, naming it. Regular
//! expressions run on the `regex` crate, in linear time.

use std::collections::BTreeMap;

use regex::Regex;

use super::allowance::Allowance;
use super::fleet::{Fleet, Pod, Run, Service};
use super::logs::{self, Level, Line};

/// The longest query taken.
pub const QUERY_MAX_CHARS: usize = 4096;
/// How deep aggregations may nest.
pub const MOST_DEPTH: usize = 16;
/// The most lines one query may read through: past it, the query is refused.
const MOST_LINES_READ: u64 = 3_000_000;
/// The most lines an answer holds, whatever `limit` asks.
pub const MOST_LINES: usize = 5_000;

/// Why a query was not answered.
#[derive(Debug, PartialEq)]
pub struct LogQueryError(pub String);

type Result<T> = std::result::Result<T, LogQueryError>;

fn refused<T>(message: impl Into<String>) -> Result<T> {
    Err(LogQueryError(message.into()))
}

/// A label matcher of a stream selector.
#[derive(Debug)]
struct Matcher {
    label: String,
    op: MatchOp,
}

#[derive(Debug)]
enum MatchOp {
    Equal(String),
    NotEqual(String),
    Matches(Regex),
    NotMatches(Regex),
}

impl MatchOp {
    fn keeps(&self, value: &str) -> bool {
        match self {
            MatchOp::Equal(wanted) => value == wanted,
            MatchOp::NotEqual(unwanted) => value != unwanted,
            MatchOp::Matches(regex) => regex.is_match(value),
            MatchOp::NotMatches(regex) => !regex.is_match(value),
        }
    }
}

/// A line filter.
#[derive(Debug)]
enum Filter {
    Contains(String),
    Lacks(String),
    Matches(Regex),
    Mismatches(Regex),
}

impl Filter {
    fn keeps(&self, line: &str) -> bool {
        match self {
            Filter::Contains(text) => line.contains(text.as_str()),
            Filter::Lacks(text) => !line.contains(text.as_str()),
            Filter::Matches(regex) => regex.is_match(line),
            Filter::Mismatches(regex) => !regex.is_match(line),
        }
    }
}

/// A selector and its filters: which lines.
#[derive(Debug)]
pub struct LogQuery {
    matchers: Vec<Matcher>,
    filters: Vec<Filter>,
}

/// A query: lines, or numbers computed from them.
#[derive(Debug)]
pub enum Query {
    Lines(LogQuery),
    Metric(Metric),
}

#[derive(Debug)]
pub enum Metric {
    /// `count_over_time(q[range])`, or `rate` (the count per second).
    OverTime {
        query: LogQuery,
        range: f64,
        per_second: bool,
    },
    Aggregate {
        op: Aggregation,
        grouping: Option<Grouping>,
        inner: Box<Metric>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Aggregation {
    Sum,
    Count,
    Min,
    Max,
    Avg,
}

#[derive(Debug)]
pub enum Grouping {
    By(Vec<String>),
    Without(Vec<String>),
}

/// A stream's labels, sorted.
pub type Labels = BTreeMap<String, String>;

/// Parses a query.
pub fn parse(query: &str) -> Result<Query> {
    if query.chars().count() > QUERY_MAX_CHARS {
        return refused(format!(
            "the query is longer than {QUERY_MAX_CHARS} characters"
        ));
    }
    let mut parser = Parser {
        text: query,
        at: 0,
        depth: 0,
    };
    parser.space();
    let parsed = if parser.peek() == Some('{') {
        Query::Lines(parser.log_query()?)
    } else {
        Query::Metric(parser.metric()?)
    };
    parser.space();
    if parser.at < query.len() {
        return refused(format!(
            "unexpected {:?} at character {}: this server reads stream selectors, line filters, count_over_time, rate and sum, count, min, max or avg",
            &query[parser.at..].chars().take(12).collect::<String>(),
            parser.at + 1
        ));
    }
    Ok(parsed)
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
    /// Aggregations open around the one being read.
    depth: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn space(&mut self) {
        let trimmed = self.rest().trim_start();
        self.at = self.text.len() - trimmed.len();
    }

    fn eat(&mut self, token: &str) -> bool {
        self.space();
        if self.rest().starts_with(token) {
            self.at += token.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, token: &str) -> Result<()> {
        if self.eat(token) {
            Ok(())
        } else {
            refused(format!("expected {token} at character {}", self.at + 1))
        }
    }

    fn identifier(&mut self) -> Result<String> {
        self.space();
        let length = self
            .rest()
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(self.rest().len());
        if length == 0 {
            return refused(format!("expected a name at character {}", self.at + 1));
        }
        let name = self.rest()[..length].to_string();
        self.at += length;
        Ok(name)
    }

    fn string(&mut self) -> Result<String> {
        self.space();
        let quote = self.peek();
        if quote == Some('`') {
            let end = self.rest()[1..]
                .find('`')
                .ok_or_else(|| LogQueryError("a `…` text is not closed".into()))?;
            let text = self.rest()[1..=end].to_string();
            self.at += end + 2;
            return Ok(text);
        }
        if quote != Some('"') {
            return refused(format!("expected a \"text\" at character {}", self.at + 1));
        }
        let mut text = String::new();
        let mut chars = self.rest()[1..].char_indices();
        while let Some((index, c)) = chars.next() {
            match c {
                '"' => {
                    self.at += index + 2;
                    return Ok(text);
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => text.push('\n'),
                    Some((_, 't')) => text.push('\t'),
                    Some((_, escaped)) => text.push(escaped),
                    None => break,
                },
                c => text.push(c),
            }
        }
        refused("a \"…\" text is not closed")
    }

    fn regex(&mut self, anchored: bool) -> Result<Regex> {
        let pattern = self.string()?;
        let pattern = if anchored {
            format!("^(?:{pattern})$")
        } else {
            pattern
        };
        regex::RegexBuilder::new(&pattern)
            .size_limit(1 << 20)
            .build()
            .map_err(|error| LogQueryError(format!("a regular expression does not read: {error}")))
    }

    fn log_query(&mut self) -> Result<LogQuery> {
        self.expect("{")?;
        let mut matchers = Vec::new();
        loop {
            let label = self.identifier()?;
            let op = if self.eat("=~") {
                MatchOp::Matches(self.regex(true)?)
            } else if self.eat("!~") {
                MatchOp::NotMatches(self.regex(true)?)
            } else if self.eat("!=") {
                MatchOp::NotEqual(self.string()?)
            } else if self.eat("=") {
                MatchOp::Equal(self.string()?)
            } else {
                return refused(format!("expected =, !=, =~ or !~ after {label}"));
            };
            matchers.push(Matcher { label, op });
            if self.eat("}") {
                break;
            }
            self.expect(",")?;
        }
        if !matchers
            .iter()
            .any(|m| matches!(&m.op, MatchOp::Equal(v) if !v.is_empty()))
        {
            return refused(
                "a stream selector needs at least one label equal to a value, e.g. {qovery_com_service_id=\"…\"}",
            );
        }
        let mut filters = Vec::new();
        loop {
            let filter = if self.eat("|=") {
                Filter::Contains(self.string()?)
            } else if self.eat("!=") {
                Filter::Lacks(self.string()?)
            } else if self.eat("|~") {
                Filter::Matches(self.regex(false)?)
            } else if self.eat("!~") {
                Filter::Mismatches(self.regex(false)?)
            } else if self.rest().trim_start().starts_with('|') {
                return refused(
                    "only the line filters |=, !=, |~ and !~ are supported by this server's LogQL (no parsers or label filters)",
                );
            } else {
                break;
            };
            filters.push(filter);
        }
        Ok(LogQuery { matchers, filters })
    }

    fn duration(&mut self) -> Result<f64> {
        self.space();
        let length = self
            .rest()
            .find(|c: char| !(c.is_ascii_alphanumeric()))
            .unwrap_or(self.rest().len());
        let text = &self.rest()[..length];
        let seconds = duration_seconds(text)
            .ok_or_else(|| LogQueryError(format!("{text:?} is not a duration such as 5m")))?;
        self.at += length;
        Ok(seconds)
    }

    fn grouping(&mut self) -> Result<Option<Grouping>> {
        let by = if self.eat("by") {
            true
        } else if self.eat("without") {
            false
        } else {
            return Ok(None);
        };
        self.expect("(")?;
        let mut labels = Vec::new();
        if !self.eat(")") {
            loop {
                labels.push(self.identifier()?);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        Ok(Some(if by {
            Grouping::By(labels)
        } else {
            Grouping::Without(labels)
        }))
    }

    fn metric(&mut self) -> Result<Metric> {
        let name = self.identifier()?;
        let op = match name.as_str() {
            "count_over_time" | "rate" => {
                self.expect("(")?;
                let query = self.log_query()?;
                self.expect("[")?;
                let range = self.duration()?;
                self.expect("]")?;
                self.expect(")")?;
                return Ok(Metric::OverTime {
                    query,
                    range,
                    per_second: name == "rate",
                });
            }
            "sum" => Aggregation::Sum,
            "count" => Aggregation::Count,
            "min" => Aggregation::Min,
            "max" => Aggregation::Max,
            "avg" => Aggregation::Avg,
            other => {
                return refused(format!(
                    "the function {other} is not supported by this server's LogQL"
                ))
            }
        };
        let before = self.grouping()?;
        self.expect("(")?;
        self.depth += 1;
        if self.depth > MOST_DEPTH {
            return refused(format!(
                "the query nests aggregations deeper than {MOST_DEPTH} levels"
            ));
        }
        let inner = self.metric()?;
        self.depth -= 1;
        self.expect(")")?;
        let grouping = match before {
            Some(grouping) => Some(grouping),
            None => self.grouping()?,
        };
        Ok(Metric::Aggregate {
            op,
            grouping,
            inner: Box::new(inner),
        })
    }
}

/// `30s`, `5m`, `1h`, `7d`, `500ms`, or several (`1h30m`): in seconds.
pub fn duration_seconds(text: &str) -> Option<f64> {
    if text.is_empty() {
        return None;
    }
    let mut total = 0.0;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits == 0 {
            return None;
        }
        let number: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let scale = match &rest[..unit] {
            "ms" => 0.001,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            "d" => 86_400.0,
            "w" => 604_800.0,
            "y" => 31_536_000.0,
            _ => return None,
        };
        total += number * scale;
        rest = &rest[unit..];
    }
    Some(total)
}

/// A container's stream: its labels but the level.
struct Source<'f> {
    service: &'f Service,
    run: &'f Run,
    pod: &'f Pod,
}

impl Source<'_> {
    fn labels(&self, level: Level) -> Labels {
        Labels::from([
            ("namespace".to_string(), self.service.namespace.clone()),
            ("pod".to_string(), self.pod.name.clone()),
            ("container".to_string(), self.service.workload.clone()),
            ("app".to_string(), self.run.version.clone()),
            (
                "qovery_com_service_id".to_string(),
                self.service.id.to_string(),
            ),
            (
                "qovery_com_deployment_id".to_string(),
                self.run.deployment_id.to_string(),
            ),
            ("level".to_string(), level.label().to_string()),
        ])
    }
}

impl LogQuery {
    /// The levels whose streams of `source` the selector keeps.
    fn levels(&self, source: &Source) -> Vec<Level> {
        Level::ALL
            .into_iter()
            .filter(|level| {
                let labels = source.labels(*level);
                self.matchers.iter().all(|matcher| {
                    matcher
                        .op
                        .keeps(labels.get(&matcher.label).map_or("", String::as_str))
                })
            })
            .collect()
    }

    fn keeps(&self, line: &Line) -> bool {
        self.filters.iter().all(|filter| filter.keeps(&line.text))
    }
}

/// The containers of the fleet whose streams the query keeps, with the levels kept.
fn sources<'f>(
    fleet: &'f Fleet,
    query: &LogQuery,
    from: f64,
    to: f64,
) -> Vec<(Source<'f>, Vec<Level>)> {
    let mut found = Vec::new();
    for service in &fleet.services {
        for run in &service.runs {
            for pod in &run.pods {
                if pod.from >= to || pod.to.is_some_and(|end| end <= from) {
                    continue;
                }
                let source = Source { service, run, pod };
                let levels = query.levels(&source);
                if !levels.is_empty() {
                    found.push((source, levels));
                }
            }
        }
    }
    found
}

/// A budget of lines to read, against `MOST_LINES_READ`, for the whole of one query (every step
/// of a range), and the allowance it runs under.
pub struct Budget {
    read: u64,
    allowance: Allowance,
}

fn too_many_lines() -> LogQueryError {
    LogQueryError(format!(
        "the query would read more than {MOST_LINES_READ} lines: narrow its time range or its selector, or lengthen its step"
    ))
}

impl Budget {
    pub fn new(allowance: Allowance) -> Self {
        Budget { read: 0, allowance }
    }

    fn spend(&mut self, lines: u64) -> Result<()> {
        self.read += lines;
        if self.read > MOST_LINES_READ {
            return Err(too_many_lines());
        }
        self.allowance
            .check()
            .map_err(|stopped| LogQueryError(stopped.message()))
    }
}

/// Refuses a metric query over `[from, to]` every `step` seconds, before it runs, when it would
/// read more than `MOST_LINES_READ` lines: each step reads its range's lines again.
pub fn admit(fleet: &Fleet, metric: &Metric, from: f64, to: f64, step: f64) -> Result<()> {
    let (query, range) = metric.source();
    let mut lines = 0u64;
    for (source, _) in sources(fleet, query, from - range, to) {
        let ticks = logs::ticks(source.pod, from - range, to);
        lines = lines.saturating_add(ticks.end - ticks.start);
    }
    let reads = (range / step).max(1.0);
    if lines as f64 * reads > MOST_LINES_READ as f64 {
        return Err(too_many_lines());
    }
    Ok(())
}

impl Metric {
    /// The lines it counts, and over how long.
    fn source(&self) -> (&LogQuery, f64) {
        match self {
            Metric::OverTime { query, range, .. } => (query, *range),
            Metric::Aggregate { inner, .. } => inner.source(),
        }
    }
}

/// A line found, with its stream.
pub struct Found {
    pub labels: Labels,
    pub at: f64,
    pub text: String,
}

/// The lines `query` keeps in `[from, to)`, newest first (`backward`) or oldest first, at most
/// `limit`.
pub fn lines(
    fleet: &Fleet,
    query: &LogQuery,
    from: f64,
    to: f64,
    limit: usize,
    backward: bool,
    budget: &mut Budget,
) -> Result<Vec<Found>> {
    let mut found: Vec<Found> = Vec::new();
    for (source, levels) in sources(fleet, query, from, to) {
        let ticks = logs::ticks(source.pod, from, to);
        budget.spend(ticks.end - ticks.start)?;
        let mut kept = 0;
        let mut take = |tick: u64| -> bool {
            let Some(level) = logs::level_at(source.service, source.run, source.pod, tick) else {
                return true;
            };
            if !levels.contains(&level) {
                return true;
            }
            if let Some(line) = logs::line_at(source.service, source.run, source.pod, tick) {
                if query.keeps(&line) {
                    found.push(Found {
                        labels: source.labels(level),
                        at: line.at,
                        text: line.text,
                    });
                    kept += 1;
                }
            }
            kept < limit
        };
        if backward {
            for tick in ticks.rev() {
                if !take(tick) {
                    break;
                }
            }
        } else {
            for tick in ticks {
                if !take(tick) {
                    break;
                }
            }
        }
    }
    found.sort_by(|a, b| a.at.total_cmp(&b.at));
    if backward {
        found.reverse();
    }
    found.truncate(limit);
    Ok(found)
}

/// The values `label` takes in the streams `query` keeps in `[from, to)` (every stream when
/// none is given).
pub fn label_values(
    fleet: &Fleet,
    label: &str,
    query: Option<&LogQuery>,
    from: f64,
    to: f64,
) -> Vec<String> {
    let mut values = std::collections::BTreeSet::new();
    for service in &fleet.services {
        for run in &service.runs {
            for pod in &run.pods {
                if pod.from >= to || pod.to.is_some_and(|end| end <= from) {
                    continue;
                }
                let source = Source { service, run, pod };
                let levels = match query {
                    Some(query) => query.levels(&source),
                    None => Level::ALL.to_vec(),
                };
                for level in levels {
                    if let Some(value) = source.labels(level).remove(label) {
                        values.insert(value);
                    }
                }
            }
        }
    }
    values.into_iter().collect()
}

/// A metric query at `t`: a value per label set.
pub fn metric_at(
    fleet: &Fleet,
    metric: &Metric,
    t: f64,
    budget: &mut Budget,
) -> Result<Vec<(Labels, f64)>> {
    match metric {
        Metric::OverTime {
            query,
            range,
            per_second,
        } => {
            let from = t - range;
            let mut counts: BTreeMap<Labels, f64> = BTreeMap::new();
            for (source, levels) in sources(fleet, query, from, t) {
                let ticks = logs::ticks(source.pod, from + 1e-9, t + 1e-9);
                budget.spend(ticks.end - ticks.start)?;
                for tick in ticks {
                    let Some(level) = logs::level_at(source.service, source.run, source.pod, tick)
                    else {
                        continue;
                    };
                    if !levels.contains(&level) {
                        continue;
                    }
                    let kept = query.filters.is_empty()
                        || logs::line_at(source.service, source.run, source.pod, tick)
                            .is_some_and(|line| query.keeps(&line));
                    if kept {
                        *counts.entry(source.labels(level)).or_default() += 1.0;
                    }
                }
            }
            Ok(counts
                .into_iter()
                .map(|(labels, count)| (labels, if *per_second { count / range } else { count }))
                .collect())
        }
        Metric::Aggregate {
            op,
            grouping,
            inner,
        } => {
            let values = metric_at(fleet, inner, t, budget)?;
            let mut groups: BTreeMap<Labels, Vec<f64>> = BTreeMap::new();
            for (labels, value) in values {
                let key: Labels = match grouping {
                    Some(Grouping::By(by)) => {
                        labels.into_iter().filter(|(l, _)| by.contains(l)).collect()
                    }
                    Some(Grouping::Without(without)) => labels
                        .into_iter()
                        .filter(|(l, _)| !without.contains(l))
                        .collect(),
                    None => Labels::new(),
                };
                groups.entry(key).or_default().push(value);
            }
            Ok(groups
                .into_iter()
                .map(|(labels, values)| {
                    let sum: f64 = values.iter().sum();
                    let value = match op {
                        Aggregation::Sum => sum,
                        Aggregation::Count => values.len() as f64,
                        Aggregation::Min => values.iter().copied().fold(f64::INFINITY, f64::min),
                        Aggregation::Max => {
                            values.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                        }
                        Aggregation::Avg => sum / values.len() as f64,
                    };
                    (labels, value)
                })
                .collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_platforms_queries_read() {
        for query in [
            r#"{qovery_com_service_id="x", level="error"} |= "timeout""#,
            r#"{qovery_com_service_id="x"} != "health" |~ "GET|POST" !~ `^10\.`"#,
            r#"sum(count_over_time({qovery_com_service_id="x", level="error"}[1h]))"#,
            r#"sum by (level) (rate({qovery_com_service_id="x"}[5m]))"#,
            r#"count(count_over_time({qovery_com_service_id="x"}[1m])) by (pod)"#,
        ] {
            assert!(parse(query).is_ok(), "{query}: {:?}", parse(query).err());
        }
    }

    #[test]
    fn what_is_not_supported_is_named() {
        let refused = |query: &str| parse(query).unwrap_err().0;
        assert!(refused(r#"{qovery_com_service_id="x"} | json"#).contains("line filters"));
        assert!(refused(r#"bytes_over_time({a="b"}[1m])"#).contains("bytes_over_time"));
        assert!(refused(r#"{level=~".*"}"#).contains("at least one label"));
        assert!(refused(r#"{a="b"} |= "x" garbage"#).contains("unexpected"));
        assert!(refused(r#"{a="b"#).contains("not closed"));
    }

    #[test]
    fn durations_read_as_seconds() {
        assert_eq!(duration_seconds("5m"), Some(300.0));
        assert_eq!(duration_seconds("1h30m"), Some(5400.0));
        assert_eq!(duration_seconds("500ms"), Some(0.5));
        assert_eq!(duration_seconds("5x"), None);
        assert_eq!(duration_seconds(""), None);
    }
}
