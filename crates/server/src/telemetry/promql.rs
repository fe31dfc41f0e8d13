//! PromQL over the fleet's series: the query parsed by `promql-parser` (a maintained parser, the
//! GreptimeDB project's), evaluated here for what `observability.md` lists the platform's console
//! using and a little more: selectors with `offset` and `@`, range selectors and subqueries;
//! `rate`, `increase`, `irate`, `delta`, `idelta` and the `*_over_time` functions; `sum`, `avg`,
//! `min`, `max`, `count`, `group`, `stddev`, `stdvar`, `quantile`, `topk` and `bottomk`, by or
//! without labels; arithmetic, comparison (with `bool`) and set operators between scalars and
//! vectors, matched `on` or `ignoring` labels with `group_left` or `group_right`; `clamp*`,
//! `abs`, `ceil`, `floor`, `round`, `sqrt`, `exp`, `ln`, `log2`, `log10`, `vector`, `scalar`,
//! `time`, `timestamp`, `absent`, `sort*`, `label_replace` and `histogram_quantile`. Anything
//! else is refused, naming it: never a silent empty answer.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::time::Duration;

use promql_parser::label::{MatchOp, Matchers};
use promql_parser::parser::token::{self, TokenType};
use promql_parser::parser::{
    AggregateExpr, AtModifier, BinaryExpr, Call, Expr, LabelModifier, Offset,
    VectorMatchCardinality, VectorSelector,
};

use super::allowance::Allowance;
use super::fleet::Fleet;
use super::series::{self, Labels, Series, Window, SCRAPE_EVERY};

/// Prometheus's own bounds: points a series may have in one answer, and how far back an instant
/// selector looks for a sample.
pub const MOST_POINTS: usize = 11_000;
const LOOKBACK: f64 = 300.0;
/// The most work one query may take, counted before it runs: every evaluation of every part of
/// the expression at every time it is evaluated (the range's steps times each enclosing
/// subquery's points), and every sample it reads. About a second of this server's time.
const MOST_WORK: f64 = 5_000_000.0;
/// How deep expressions may nest: brackets, and the parts of the parsed expression (a chain of
/// `1+1+…` nests as deep as it is long).
const MOST_DEPTH: usize = 64;
/// How far from the time it is evaluated at a query may reach, through its offsets, `@` times,
/// ranges and subqueries together.
const MOST_REACH: Duration = Duration::from_secs(366 * 24 * 3600);
/// The longest query taken.
pub const QUERY_MAX_CHARS: usize = 4096;

/// Why a query was not answered: its fault (`bad_data`), or something this server does not
/// evaluate.
#[derive(Debug, PartialEq)]
pub struct QueryError {
    pub unsupported: bool,
    pub message: String,
}

impl QueryError {
    fn bad(message: impl Into<String>) -> Self {
        QueryError {
            unsupported: false,
            message: message.into(),
        }
    }

    fn unsupported(what: impl std::fmt::Display) -> Self {
        QueryError {
            unsupported: true,
            message: format!("{what} is not supported by this server's PromQL"),
        }
    }
}

type Result<T> = std::result::Result<T, QueryError>;

/// A sample of an instant vector.
#[derive(Clone, Debug)]
pub struct Sample {
    pub labels: Rc<Labels>,
    pub value: f64,
    /// When it was taken (for `timestamp`).
    pub at: f64,
}

/// A series of a range vector, or of an answer.
#[derive(Clone, Debug)]
pub struct Points {
    pub labels: Rc<Labels>,
    pub points: Vec<(f64, f64)>,
}

/// What an expression evaluates to at one time.
#[derive(Clone, Debug)]
pub enum Value {
    Scalar(f64),
    Text(String),
    Vector(Vec<Sample>),
    Matrix(Vec<Points>),
}

/// The query parsed, its nesting bounded.
pub fn parse(query: &str) -> Result<Expr> {
    if query.chars().count() > QUERY_MAX_CHARS {
        return Err(QueryError::bad(format!(
            "the query is longer than {QUERY_MAX_CHARS} characters"
        )));
    }
    let mut depth: usize = 0;
    let mut deepest: usize = 0;
    for c in query.chars() {
        match c {
            '(' | '{' | '[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if deepest > MOST_DEPTH {
        return Err(too_deep());
    }
    let expr = promql_parser::parser::parse(query).map_err(QueryError::bad)?;
    if depth_of(&expr) > MOST_DEPTH {
        return Err(too_deep());
    }
    within_reach(&expr)?;
    Ok(expr)
}

/// A stored alert rule's condition: a query within the bounds, whose work before it reads any
/// series (its evaluations alone, which subqueries multiply) is within `MOST_WORK`. What the
/// series add is counted when each round evaluates it.
pub fn check_rule(expression: &str) -> Result<Expr> {
    let expr = parse(expression)?;
    let no_series = Fleet {
        services: Vec::new(),
    };
    let mut evaluator = Evaluator::new(
        &no_series,
        &expr,
        (0.0, 0.0, 60.0),
        0.0,
        Allowance::unwatched(),
    );
    evaluator.admit(&expr, 1.0)?;
    Ok(expr)
}

fn too_deep() -> QueryError {
    QueryError::bad(format!(
        "the query nests deeper than {MOST_DEPTH} levels (brackets, operators and calls counted)"
    ))
}

/// The parts an expression is made of, in order.
fn parts(expr: &Expr) -> Vec<&Expr> {
    match expr {
        Expr::Aggregate(aggregate) => std::iter::once(aggregate.expr.as_ref())
            .chain(aggregate.param.as_deref())
            .collect(),
        Expr::Unary(unary) => vec![&unary.expr],
        Expr::Binary(binary) => vec![&binary.lhs, &binary.rhs],
        Expr::Paren(paren) => vec![&paren.expr],
        Expr::Subquery(subquery) => vec![&subquery.expr],
        Expr::Call(call) => call.args.args.iter().map(|arg| arg.as_ref()).collect(),
        _ => Vec::new(),
    }
}

/// How deep the parsed expression nests, walked without recursion: a tree of any depth is
/// measured before anything recurses over it.
fn depth_of(expr: &Expr) -> usize {
    let mut deepest = 0;
    let mut to_visit = vec![(expr, 1)];
    while let Some((expr, depth)) = to_visit.pop() {
        deepest = deepest.max(depth);
        to_visit.extend(parts(expr).into_iter().map(|part| (part, depth + 1)));
    }
    deepest
}

/// Refuses an offset, `@`, range or subquery that reaches further than `MOST_REACH`.
fn within_reach(expr: &Expr) -> Result<()> {
    let most = MOST_REACH.as_secs_f64();
    let refused = |what: &str| {
        Err(QueryError::bad(format!(
            "{what} reaches further than {} days",
            MOST_REACH.as_secs() / 86_400
        )))
    };
    if lookback(expr) > most {
        return refused("the query's ranges and offsets together");
    }
    let mut to_visit = vec![expr];
    while let Some(expr) = to_visit.pop() {
        let (offset, at) = match expr {
            Expr::VectorSelector(selector) => (&selector.offset, &selector.at),
            Expr::MatrixSelector(matrix) => (&matrix.vs.offset, &matrix.vs.at),
            Expr::Subquery(subquery) => (&subquery.offset, &subquery.at),
            _ => (&None, &None),
        };
        if offset_of(offset).abs() > most {
            return refused("an offset");
        }
        if let Some(AtModifier::At(time)) = at {
            let from_now = match time.duration_since(std::time::SystemTime::now()) {
                Ok(ahead) => ahead,
                Err(behind) => behind.duration(),
            };
            if from_now > MOST_REACH {
                return refused("an @ time");
            }
        }
        to_visit.extend(parts(expr));
    }
    Ok(())
}

/// How far before the time it is evaluated at an expression reads samples.
pub fn lookback(expr: &Expr) -> f64 {
    match expr {
        Expr::Subquery(subquery) => {
            subquery.range.as_secs_f64() + offset_of(&subquery.offset) + lookback(&subquery.expr)
        }
        Expr::VectorSelector(selector) => LOOKBACK + offset_of(&selector.offset),
        Expr::MatrixSelector(matrix) => matrix.range.as_secs_f64() + offset_of(&matrix.vs.offset),
        _ => parts(expr).into_iter().map(lookback).fold(0.0, f64::max),
    }
}

fn offset_of(offset: &Option<Offset>) -> f64 {
    match offset {
        Some(Offset::Pos(duration)) => duration.as_secs_f64(),
        Some(Offset::Neg(duration)) => -duration.as_secs_f64(),
        None => 0.0,
    }
}

/// The evaluation of one query over a fleet: the series each selector names, found once.
pub struct Evaluator<'a> {
    fleet: &'a Fleet,
    window: Window,
    /// The query's range, for `@ start()` and `@ end()`, and its step, for subqueries.
    start: f64,
    end: f64,
    step: f64,
    selected: HashMap<String, Rc<Vec<Series>>>,
    allowance: Allowance,
}

impl<'a> Evaluator<'a> {
    /// An evaluation over `[start, end]` every `step` seconds (one time for an instant query),
    /// at `now`.
    pub fn new(
        fleet: &'a Fleet,
        expr: &Expr,
        (start, end, step): (f64, f64, f64),
        now: f64,
        allowance: Allowance,
    ) -> Self {
        // Counters count from an hour before the earliest sample the query reads, or before the
        // fleet's first instance started (nothing counts before it: an offset of a year or a
        // range from 1970 integrates no empty years).
        let earliest = (start - lookback(expr)).max(fleet.first_started().unwrap_or(now)) - 3600.0;
        Evaluator {
            fleet,
            window: Window {
                anchor: (earliest / 3600.0).floor() * 3600.0,
                now,
            },
            start,
            end,
            step,
            selected: HashMap::new(),
            allowance,
        }
    }

    /// The expression at `t`.
    pub fn instant(&mut self, expr: &Expr, t: f64) -> Result<Value> {
        self.admit(expr, 1.0)?;
        self.eval(expr, t)
    }

    /// Refuses the expression evaluated `evaluations` times when its work would pass
    /// `MOST_WORK`, before any of it is done.
    fn admit(&mut self, expr: &Expr, evaluations: f64) -> Result<()> {
        let work = self.work(expr, evaluations)?;
        if work > MOST_WORK {
            return Err(QueryError::bad(format!(
                "the query would take about {} units of work, more than the {} one query may: narrow its selectors, shorten its ranges or lengthen its steps (a subquery's points count for every step)",
                work.round() as u64,
                MOST_WORK as u64
            )));
        }
        Ok(())
    }

    /// The work of evaluating `expr` `evaluations` times: one unit per part per time, and one
    /// per sample read, subqueries multiplying what they enclose by their points.
    fn work(&mut self, expr: &Expr, evaluations: f64) -> Result<f64> {
        let own = match expr {
            Expr::VectorSelector(selector) => {
                evaluations * (1.0 + self.select(selector)?.len() as f64)
            }
            Expr::MatrixSelector(matrix) => {
                let per_series = (matrix.range.as_secs_f64() / SCRAPE_EVERY).ceil() + 1.0;
                evaluations * (1.0 + self.select(&matrix.vs)?.len() as f64 * per_series)
            }
            Expr::Subquery(subquery) => {
                let step = self.subquery_step(subquery)?;
                let points = (subquery.range.as_secs_f64() / step).ceil() + 1.0;
                return Ok(evaluations * (1.0 + points)
                    + self.work(&subquery.expr, evaluations * points)?);
            }
            _ => evaluations,
        };
        let mut work = own;
        for part in parts(expr) {
            work += self.work(part, evaluations)?;
        }
        Ok(work)
    }

    fn subquery_step(&self, subquery: &promql_parser::parser::SubqueryExpr) -> Result<f64> {
        let step = subquery
            .step
            .map_or(self.step.max(SCRAPE_EVERY), |step| step.as_secs_f64());
        if step <= 0.0 {
            return Err(QueryError::bad("a subquery's step must be above zero"));
        }
        Ok(step)
    }

    fn still_wanted(&self) -> Result<()> {
        self.allowance
            .check()
            .map_err(|stopped| QueryError::bad(stopped.message()))
    }

    /// The expression at every step of the range: a series per label set (a scalar is one
    /// series without labels).
    pub fn range(&mut self, expr: &Expr) -> Result<Vec<Points>> {
        let steps = ((self.end - self.start) / self.step).floor() as usize + 1;
        if steps > MOST_POINTS {
            return Err(QueryError::bad(format!(
                "exceeded maximum resolution of {MOST_POINTS} points per timeseries. Try decreasing the query resolution (?step=XX)"
            )));
        }
        self.admit(expr, steps as f64)?;
        let mut series: BTreeMap<Rc<Labels>, Vec<(f64, f64)>> = BTreeMap::new();
        for index in 0..steps {
            let t = self.start + index as f64 * self.step;
            self.still_wanted()?;
            let value = self.eval(expr, t)?;
            match value {
                Value::Scalar(value) => series
                    .entry(Rc::new(Labels::new()))
                    .or_default()
                    .push((t, value)),
                Value::Vector(samples) => {
                    for sample in samples {
                        series
                            .entry(sample.labels)
                            .or_default()
                            .push((t, sample.value));
                    }
                }
                Value::Matrix(_) | Value::Text(_) => {
                    return Err(QueryError::bad(
                        "a range query must be of a scalar or an instant vector",
                    ))
                }
            }
        }
        Ok(series
            .into_iter()
            .map(|(labels, points)| Points { labels, points })
            .collect())
    }

    fn eval(&mut self, expr: &Expr, t: f64) -> Result<Value> {
        match expr {
            Expr::NumberLiteral(number) => Ok(Value::Scalar(number.val)),
            Expr::StringLiteral(text) => Ok(Value::Text(text.val.clone())),
            Expr::Paren(paren) => self.eval(&paren.expr, t),
            Expr::Unary(unary) => Ok(match self.eval(&unary.expr, t)? {
                Value::Scalar(value) => Value::Scalar(-value),
                Value::Vector(samples) => Value::Vector(
                    samples
                        .into_iter()
                        .map(|sample| Sample {
                            labels: without_name(&sample.labels),
                            value: -sample.value,
                            at: sample.at,
                        })
                        .collect(),
                ),
                _ => return Err(QueryError::bad("a minus applies to a number or a vector")),
            }),
            Expr::VectorSelector(selector) => self.instant_selector(selector, t),
            Expr::MatrixSelector(matrix) => {
                let at = self.at(&matrix.vs.at, t) - offset_of(&matrix.vs.offset);
                self.range_selector(&matrix.vs, at, matrix.range.as_secs_f64())
            }
            Expr::Subquery(subquery) => {
                let end = self.at(&subquery.at, t) - offset_of(&subquery.offset);
                let step = self.subquery_step(subquery)?;
                let range = subquery.range.as_secs_f64();
                let mut series: BTreeMap<Rc<Labels>, Vec<(f64, f64)>> = BTreeMap::new();
                let mut at = ((end - range) / step).floor() * step + step;
                while at <= end {
                    self.still_wanted()?;
                    match self.eval(&subquery.expr, at)? {
                        Value::Vector(samples) => {
                            for sample in samples {
                                series
                                    .entry(sample.labels)
                                    .or_default()
                                    .push((at, sample.value));
                            }
                        }
                        Value::Scalar(value) => series
                            .entry(Rc::new(Labels::new()))
                            .or_default()
                            .push((at, value)),
                        _ => return Err(QueryError::bad("a subquery is of an instant vector")),
                    }
                    at += step;
                }
                Ok(Value::Matrix(
                    series
                        .into_iter()
                        .map(|(labels, points)| Points { labels, points })
                        .collect(),
                ))
            }
            Expr::Aggregate(aggregate) => self.aggregate(aggregate, t),
            Expr::Binary(binary) => self.binary(binary, t),
            Expr::Call(call) => self.call(call, t),
            Expr::Extension(_) => Err(QueryError::unsupported("an extension expression")),
        }
    }

    /// The time an `@` modifier pins, or `t`.
    fn at(&self, at: &Option<AtModifier>, t: f64) -> f64 {
        match at {
            Some(AtModifier::Start) => self.start,
            Some(AtModifier::End) => self.end,
            Some(AtModifier::At(time)) => time
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |since| since.as_secs_f64()),
            None => t,
        }
    }

    /// The fleet's series the selector names.
    fn select(&mut self, selector: &VectorSelector) -> Result<Rc<Vec<Series>>> {
        let key = format!(
            "{}{{{}}}",
            selector.name.as_deref().unwrap_or(""),
            selector.matchers
        );
        if let Some(found) = self.selected.get(&key) {
            return Ok(found.clone());
        }
        let names = metric_names(selector)?;
        let mut found = Vec::new();
        for name in names {
            found.extend(
                series::named(self.fleet, name)
                    .into_iter()
                    .filter(|series| matches(&selector.matchers, &series.labels)),
            );
        }
        let found = Rc::new(found);
        self.selected.insert(key, found.clone());
        Ok(found)
    }

    fn instant_selector(&mut self, selector: &VectorSelector, t: f64) -> Result<Value> {
        let at = self.at(&selector.at, t) - offset_of(&selector.offset);
        let series = self.select(selector)?;
        self.still_wanted()?;
        let mut samples = Vec::new();
        // The newest scrape at or before the time: every series is scraped every 30 s while it
        // exists, and one that ended is stale at once (as a pod gone is).
        let scrape = (at / SCRAPE_EVERY).floor() * SCRAPE_EVERY;
        for one in series.iter() {
            if let Some(value) = one.value_at(self.fleet, self.window, scrape) {
                samples.push(Sample {
                    labels: Rc::new(one.labels.clone()),
                    value,
                    at: scrape,
                });
            }
        }
        Ok(Value::Vector(samples))
    }

    fn range_selector(&mut self, selector: &VectorSelector, end: f64, range: f64) -> Result<Value> {
        let series = self.select(selector)?;
        self.still_wanted()?;
        let mut matrix = Vec::new();
        for one in series.iter() {
            let mut points = Vec::new();
            let mut scrape = ((end - range) / SCRAPE_EVERY).floor() * SCRAPE_EVERY + SCRAPE_EVERY;
            while scrape <= end {
                if let Some(value) = one.value_at(self.fleet, self.window, scrape) {
                    points.push((scrape, value));
                }
                scrape += SCRAPE_EVERY;
            }
            if !points.is_empty() {
                matrix.push(Points {
                    labels: Rc::new(one.labels.clone()),
                    points,
                });
            }
        }
        Ok(Value::Matrix(matrix))
    }

    fn vector(&mut self, expr: &Expr, t: f64, what: &str) -> Result<Vec<Sample>> {
        match self.eval(expr, t)? {
            Value::Vector(samples) => Ok(samples),
            _ => Err(QueryError::bad(format!("{what} takes an instant vector"))),
        }
    }

    fn scalar(&mut self, expr: &Expr, t: f64, what: &str) -> Result<f64> {
        match self.eval(expr, t)? {
            Value::Scalar(value) => Ok(value),
            _ => Err(QueryError::bad(format!("{what} takes a number"))),
        }
    }

    fn matrix(&mut self, expr: &Expr, t: f64, what: &str) -> Result<Vec<Points>> {
        match self.eval(expr, t)? {
            Value::Matrix(series) => Ok(series),
            _ => Err(QueryError::bad(format!("{what} takes a range vector"))),
        }
    }

    fn aggregate(&mut self, aggregate: &AggregateExpr, t: f64) -> Result<Value> {
        let op = aggregate.op.id();
        let name = aggregate.op.to_string();
        if op == token::T_COUNT_VALUES || op == token::T_LIMITK || op == token::T_LIMIT_RATIO {
            return Err(QueryError::unsupported(format!("the aggregation {name}")));
        }
        let parameter = match &aggregate.param {
            Some(param) => Some(self.scalar(param, t, &name)?),
            None => None,
        };
        let samples = self.vector(&aggregate.expr, t, &name)?;
        let group_of = |labels: &Labels| -> Labels {
            match &aggregate.modifier {
                Some(LabelModifier::Include(by)) => labels
                    .iter()
                    .filter(|(label, _)| by.labels.contains(label))
                    .cloned()
                    .collect(),
                Some(LabelModifier::Exclude(without)) => labels
                    .iter()
                    .filter(|(label, _)| label != "__name__" && !without.labels.contains(label))
                    .cloned()
                    .collect(),
                None => Labels::new(),
            }
        };
        if op == token::T_TOPK || op == token::T_BOTTOMK {
            let k = parameter.unwrap_or(1.0).max(0.0) as usize;
            let mut groups: BTreeMap<Labels, Vec<Sample>> = BTreeMap::new();
            for sample in samples {
                groups
                    .entry(group_of(&sample.labels))
                    .or_default()
                    .push(sample);
            }
            let mut kept = Vec::new();
            for (_, mut group) in groups {
                group.sort_by(|a, b| {
                    let order = a.value.total_cmp(&b.value);
                    if op == token::T_TOPK {
                        order.reverse()
                    } else {
                        order
                    }
                });
                kept.extend(group.into_iter().take(k));
            }
            return Ok(Value::Vector(kept));
        }
        let mut groups: BTreeMap<Labels, Vec<f64>> = BTreeMap::new();
        for sample in &samples {
            groups
                .entry(group_of(&sample.labels))
                .or_default()
                .push(sample.value);
        }
        let mut result = Vec::new();
        for (labels, values) in groups {
            let count = values.len() as f64;
            let sum: f64 = values.iter().sum();
            let mean = sum / count;
            let value = match op {
                token::T_SUM => sum,
                token::T_AVG => mean,
                token::T_MIN => values.iter().copied().fold(f64::INFINITY, f64::min),
                token::T_MAX => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                token::T_COUNT => count,
                token::T_GROUP => 1.0,
                token::T_STDVAR | token::T_STDDEV => {
                    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / count;
                    if op == token::T_STDDEV {
                        variance.sqrt()
                    } else {
                        variance
                    }
                }
                token::T_QUANTILE => quantile(parameter.unwrap_or(f64::NAN), values),
                _ => return Err(QueryError::unsupported(format!("the aggregation {name}"))),
            };
            result.push(Sample {
                labels: Rc::new(labels),
                value,
                at: t,
            });
        }
        Ok(Value::Vector(result))
    }

    fn binary(&mut self, binary: &BinaryExpr, t: f64) -> Result<Value> {
        let op = binary.op;
        let returns_bool = binary.modifier.as_ref().is_some_and(|m| m.return_bool);
        let lhs = self.eval(&binary.lhs, t)?;
        let rhs = self.eval(&binary.rhs, t)?;
        match (lhs, rhs) {
            (Value::Scalar(a), Value::Scalar(b)) => {
                let value = arithmetic(op, a, b)?;
                Ok(Value::Scalar(match value {
                    Some(v) => v,
                    None => f64::from(u8::from(compare(op, a, b)?)),
                }))
            }
            (Value::Vector(samples), Value::Scalar(b)) => self
                .vector_scalar(op, samples, b, false, returns_bool)
                .map(Value::Vector),
            (Value::Scalar(a), Value::Vector(samples)) => self
                .vector_scalar(op, samples, a, true, returns_bool)
                .map(Value::Vector),
            (Value::Vector(left), Value::Vector(right)) => {
                vector_vector(binary, left, right, returns_bool).map(Value::Vector)
            }
            _ => Err(QueryError::bad(format!(
                "the operator {op} takes numbers and instant vectors"
            ))),
        }
    }

    fn vector_scalar(
        &self,
        op: TokenType,
        samples: Vec<Sample>,
        scalar: f64,
        scalar_first: bool,
        returns_bool: bool,
    ) -> Result<Vec<Sample>> {
        if op.is_set_operator() {
            return Err(QueryError::bad(format!(
                "the set operator {op} takes two instant vectors"
            )));
        }
        let mut result = Vec::new();
        for sample in samples {
            let (a, b) = if scalar_first {
                (scalar, sample.value)
            } else {
                (sample.value, scalar)
            };
            match arithmetic(op, a, b)? {
                Some(value) => result.push(Sample {
                    labels: without_name(&sample.labels),
                    value,
                    at: sample.at,
                }),
                None => {
                    let holds = compare(op, a, b)?;
                    if returns_bool {
                        result.push(Sample {
                            labels: without_name(&sample.labels),
                            value: f64::from(u8::from(holds)),
                            at: sample.at,
                        });
                    } else if holds {
                        result.push(sample);
                    }
                }
            }
        }
        Ok(result)
    }

    fn call(&mut self, call: &Call, t: f64) -> Result<Value> {
        let name = call.func.name;
        let args = &call.args.args;
        let arg = |index: usize| argument(call, index);
        match name {
            "rate" | "increase" | "delta" | "irate" | "idelta" => self.change(name, arg(0)?, t),
            "avg_over_time" | "min_over_time" | "max_over_time" | "sum_over_time"
            | "count_over_time" | "last_over_time" | "stddev_over_time" | "present_over_time" => {
                self.over_time(name, arg(0)?, t)
            }
            "quantile_over_time" => {
                let phi = self.scalar(arg(0)?, t, name)?;
                let series = self.matrix(arg(1)?, t, name)?;
                Ok(Value::Vector(
                    series
                        .into_iter()
                        .map(|one| Sample {
                            labels: without_name(&one.labels),
                            value: quantile(phi, one.points.iter().map(|(_, v)| *v).collect()),
                            at: t,
                        })
                        .collect(),
                ))
            }
            "clamp_min" | "clamp_max" => {
                let samples = self.vector(arg(0)?, t, name)?;
                let bound = self.scalar(arg(1)?, t, name)?;
                let min = name == "clamp_min";
                Ok(per_sample(samples, &|v| {
                    if min {
                        v.max(bound)
                    } else {
                        v.min(bound)
                    }
                }))
            }
            "clamp" => {
                let samples = self.vector(arg(0)?, t, name)?;
                let (low, high) = (
                    self.scalar(arg(1)?, t, name)?,
                    self.scalar(arg(2)?, t, name)?,
                );
                if low > high {
                    return Ok(Value::Vector(Vec::new()));
                }
                Ok(per_sample(samples, &|v| v.clamp(low, high)))
            }
            "abs" | "ceil" | "floor" | "sqrt" | "exp" | "ln" | "log2" | "log10" => {
                let samples = self.vector(arg(0)?, t, name)?;
                let f: fn(f64) -> f64 = match name {
                    "abs" => f64::abs,
                    "ceil" => f64::ceil,
                    "floor" => f64::floor,
                    "sqrt" => f64::sqrt,
                    "exp" => f64::exp,
                    "ln" => f64::ln,
                    "log2" => f64::log2,
                    _ => f64::log10,
                };
                Ok(per_sample(samples, &f))
            }
            "round" => {
                let samples = self.vector(arg(0)?, t, name)?;
                let to = match args.get(1) {
                    Some(to) => self.scalar(to, t, name)?,
                    None => 1.0,
                };
                Ok(per_sample(samples, &|v| (v / to).round() * to))
            }
            "vector" => Ok(Value::Vector(vec![Sample {
                labels: Rc::new(Labels::new()),
                value: self.scalar(arg(0)?, t, name)?,
                at: t,
            }])),
            "scalar" => {
                let samples = self.vector(arg(0)?, t, name)?;
                Ok(Value::Scalar(match samples.as_slice() {
                    [only] => only.value,
                    _ => f64::NAN,
                }))
            }
            "time" => Ok(Value::Scalar(t)),
            "timestamp" => {
                let samples = self.vector(arg(0)?, t, name)?;
                Ok(Value::Vector(
                    samples
                        .into_iter()
                        .map(|sample| Sample {
                            labels: without_name(&sample.labels),
                            value: sample.at,
                            at: sample.at,
                        })
                        .collect(),
                ))
            }
            "absent" => self.absent(arg(0)?, t, name),
            "sort" | "sort_desc" => {
                let mut samples = self.vector(arg(0)?, t, name)?;
                samples.sort_by(|a, b| a.value.total_cmp(&b.value));
                if name == "sort_desc" {
                    samples.reverse();
                }
                Ok(Value::Vector(samples))
            }
            "label_replace" => self.label_replace(call, t),
            "histogram_quantile" => {
                let phi = self.scalar(arg(0)?, t, name)?;
                let samples = self.vector(arg(1)?, t, name)?;
                Ok(Value::Vector(histogram_quantile(phi, samples, t)))
            }
            other => Err(QueryError::unsupported(format!("the function {other}"))),
        }
    }

    /// `rate`, `increase`, `delta` and their instant forms over each series of a range.
    fn change(&mut self, name: &str, range: &Expr, t: f64) -> Result<Value> {
        let seconds = range_of(range);
        let series = self.matrix(range, t, name)?;
        let counter = matches!(name, "rate" | "increase" | "irate");
        Ok(Value::Vector(
            series
                .into_iter()
                .filter_map(|one| {
                    let value = match name {
                        "irate" | "idelta" => instant_change(&one.points, counter),
                        _ => extrapolated(&one.points, t - seconds, t, counter, name == "rate"),
                    }?;
                    Some(Sample {
                        labels: without_name(&one.labels),
                        value,
                        at: t,
                    })
                })
                .collect(),
        ))
    }

    /// An aggregation of each series of a range over its time (`avg_over_time`, ...).
    fn over_time(&mut self, name: &str, range: &Expr, t: f64) -> Result<Value> {
        let series = self.matrix(range, t, name)?;
        Ok(Value::Vector(
            series
                .into_iter()
                .map(|one| {
                    let values: Vec<f64> = one.points.iter().map(|(_, v)| *v).collect();
                    let count = values.len() as f64;
                    let sum: f64 = values.iter().sum();
                    let value = match name {
                        "avg_over_time" => sum / count,
                        "min_over_time" => values.iter().copied().fold(f64::INFINITY, f64::min),
                        "max_over_time" => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                        "sum_over_time" => sum,
                        "count_over_time" => count,
                        "present_over_time" => 1.0,
                        "stddev_over_time" => {
                            let mean = sum / count;
                            (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / count).sqrt()
                        }
                        _ => *values.last().unwrap_or(&f64::NAN),
                    };
                    let labels = if name == "last_over_time" {
                        one.labels.clone()
                    } else {
                        without_name(&one.labels)
                    };
                    Sample {
                        labels,
                        value,
                        at: t,
                    }
                })
                .collect(),
        ))
    }

    /// `absent`: 1 with the selector's equal labels when nothing matches, else nothing.
    fn absent(&mut self, selector: &Expr, t: f64, name: &str) -> Result<Value> {
        let samples = self.vector(selector, t, name)?;
        if !samples.is_empty() {
            return Ok(Value::Vector(Vec::new()));
        }
        let labels = match selector {
            Expr::VectorSelector(selector) => selector
                .matchers
                .matchers
                .iter()
                .filter(|m| m.op == MatchOp::Equal && m.name != "__name__")
                .map(|m| (m.name.clone(), m.value.clone()))
                .collect(),
            _ => Labels::new(),
        };
        Ok(Value::Vector(vec![Sample {
            labels: Rc::new(sorted(labels)),
            value: 1.0,
            at: t,
        }]))
    }

    /// `label_replace(vector, target, replacement, source, pattern)`.
    fn label_replace(&mut self, call: &Call, t: f64) -> Result<Value> {
        let name = call.func.name;
        let arg = |index: usize| argument(call, index);
        let samples = self.vector(arg(0)?, t, name)?;
        let text = |this: &mut Self, index: usize| -> Result<String> {
            match this.eval(arg(index)?, t)? {
                Value::Text(text) => Ok(text),
                _ => Err(QueryError::bad(format!(
                    "{name} takes texts after its vector"
                ))),
            }
        };
        let (target, replacement, source, pattern) = (
            text(self, 1)?,
            text(self, 2)?,
            text(self, 3)?,
            text(self, 4)?,
        );
        let pattern = regex::RegexBuilder::new(&format!("^(?:{pattern})$"))
            .size_limit(1 << 20)
            .build()
            .map_err(|error| QueryError::bad(format!("{name}: {error}")))?;
        Ok(Value::Vector(
            samples
                .into_iter()
                .map(|sample| {
                    let value = label(&sample.labels, &source).unwrap_or_default();
                    let Some(captures) = pattern.captures(value) else {
                        return sample;
                    };
                    let mut replaced = String::new();
                    captures.expand(&replacement, &mut replaced);
                    let mut labels: Labels = sample
                        .labels
                        .iter()
                        .filter(|(name, _)| *name != target)
                        .cloned()
                        .collect();
                    if !replaced.is_empty() {
                        labels.push((target.clone(), replaced));
                    }
                    Sample {
                        labels: Rc::new(sorted(labels)),
                        ..sample
                    }
                })
                .collect(),
        ))
    }
}

/// The metric names a selector may name: its name, or those its `__name__` matchers keep.
fn metric_names(selector: &VectorSelector) -> Result<Vec<&'static str>> {
    let named: Vec<&'static str> = series::METRIC_NAMES
        .iter()
        .copied()
        .filter(|name| {
            selector
                .name
                .as_deref()
                .is_none_or(|wanted| wanted == *name)
        })
        .filter(|name| {
            selector
                .matchers
                .matchers
                .iter()
                .filter(|m| m.name == "__name__")
                .all(|m| m.is_match(name))
        })
        .collect();
    if selector.name.is_none()
        && !selector
            .matchers
            .matchers
            .iter()
            .any(|m| m.name == "__name__")
    {
        return Err(QueryError::bad(
            "a selector must name its metric: this server keeps no series without a name",
        ));
    }
    Ok(named)
}

/// The call's argument at `index`, or a 400 naming the function.
fn argument(call: &Call, index: usize) -> Result<&Expr> {
    call.args
        .args
        .get(index)
        .map(|arg| arg.as_ref())
        .ok_or_else(|| QueryError::bad(format!("{} needs argument {}", call.func.name, index + 1)))
}

/// Each sample through `f`, its metric name dropped.
fn per_sample(samples: Vec<Sample>, f: &dyn Fn(f64) -> f64) -> Value {
    Value::Vector(
        samples
            .into_iter()
            .map(|sample| Sample {
                labels: without_name(&sample.labels),
                value: f(sample.value),
                at: sample.at,
            })
            .collect(),
    )
}

/// Whether a series' labels pass the selector's matchers (a missing label reads as empty).
fn matches(matchers: &Matchers, labels: &Labels) -> bool {
    let passes = |group: &[promql_parser::label::Matcher]| {
        group
            .iter()
            .all(|matcher| matcher.is_match(label(labels, &matcher.name).unwrap_or_default()))
    };
    passes(&matchers.matchers)
        && (matchers.or_matchers.is_empty()
            || matchers.or_matchers.iter().any(|group| passes(group)))
}

fn label<'l>(labels: &'l Labels, name: &str) -> Option<&'l str> {
    labels
        .iter()
        .find(|(label, _)| label == name)
        .map(|(_, value)| value.as_str())
}

fn sorted(mut labels: Labels) -> Labels {
    labels.sort();
    labels
}

fn without_name(labels: &Rc<Labels>) -> Rc<Labels> {
    if labels.iter().any(|(name, _)| name == "__name__") {
        Rc::new(
            labels
                .iter()
                .filter(|(name, _)| name != "__name__")
                .cloned()
                .collect(),
        )
    } else {
        labels.clone()
    }
}

/// The range a function's range-vector argument reads, in seconds.
fn range_of(expr: &Expr) -> f64 {
    match expr {
        Expr::MatrixSelector(matrix) => matrix.range.as_secs_f64(),
        Expr::Subquery(subquery) => subquery.range.as_secs_f64(),
        Expr::Paren(paren) => range_of(&paren.expr),
        _ => Duration::ZERO.as_secs_f64(),
    }
}

/// `rate`, `increase` or `delta` as Prometheus computes them: the change between the first and
/// the last sample (a counter's resets added back), extrapolated towards the window's edges.
fn extrapolated(
    points: &[(f64, f64)],
    start: f64,
    end: f64,
    counter: bool,
    per_second: bool,
) -> Option<f64> {
    if points.len() < 2 {
        return None;
    }
    let (first_t, first_v) = points[0];
    let (last_t, last_v) = points[points.len() - 1];
    let mut change = last_v - first_v;
    if counter {
        for pair in points.windows(2) {
            if pair[1].1 < pair[0].1 {
                change += pair[0].1;
            }
        }
    }
    let sampled = last_t - first_t;
    let average = sampled / (points.len() - 1) as f64;
    let mut to_start = first_t - start;
    let to_end = end - last_t;
    if counter && change > 0.0 && first_v >= 0.0 {
        // A counter does not go below zero before its first sample.
        to_start = to_start.min(sampled * (first_v / change));
    }
    let threshold = average * 1.1;
    let mut extended = sampled;
    extended += if to_start < threshold {
        to_start
    } else {
        average / 2.0
    };
    extended += if to_end < threshold {
        to_end
    } else {
        average / 2.0
    };
    let mut value = change * (extended / sampled);
    if per_second {
        value /= end - start;
    }
    Some(value)
}

/// `irate` or `idelta`: the change between the last two samples.
fn instant_change(points: &[(f64, f64)], per_second: bool) -> Option<f64> {
    let [.., (t0, v0), (t1, v1)] = points else {
        return None;
    };
    let change = if per_second && v1 < v0 { *v1 } else { v1 - v0 };
    Some(if per_second {
        change / (t1 - t0)
    } else {
        change
    })
}

fn quantile(phi: f64, mut values: Vec<f64>) -> f64 {
    if values.is_empty() || phi.is_nan() {
        return f64::NAN;
    }
    if phi < 0.0 {
        return f64::NEG_INFINITY;
    }
    if phi > 1.0 {
        return f64::INFINITY;
    }
    values.sort_by(f64::total_cmp);
    let rank = phi * (values.len() - 1) as f64;
    let (low, high) = (rank.floor() as usize, rank.ceil() as usize);
    let weight = rank - rank.floor();
    values[low] * (1.0 - weight) + values[high] * weight
}

/// `histogram_quantile` over bucket series (`le`), grouped by their other labels.
fn histogram_quantile(phi: f64, samples: Vec<Sample>, t: f64) -> Vec<Sample> {
    let mut groups: BTreeMap<Labels, Vec<(f64, f64)>> = BTreeMap::new();
    for sample in samples {
        let Some(le) = label(&sample.labels, "le").and_then(promql_bound) else {
            continue;
        };
        let labels: Labels = sample
            .labels
            .iter()
            .filter(|(name, _)| name != "le" && name != "__name__")
            .cloned()
            .collect();
        groups.entry(labels).or_default().push((le, sample.value));
    }
    groups
        .into_iter()
        .filter_map(|(labels, mut buckets)| {
            buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
            let total = buckets.last()?.1;
            let value = if buckets.last()?.0 != f64::INFINITY || total <= 0.0 {
                f64::NAN
            } else {
                let rank = phi * total;
                let at = buckets.iter().position(|(_, count)| *count >= rank)?;
                if at == buckets.len() - 1 {
                    buckets[buckets.len().saturating_sub(2)].0
                } else {
                    let (low_bound, low_count) = if at == 0 { (0.0, 0.0) } else { buckets[at - 1] };
                    let (high_bound, high_count) = buckets[at];
                    low_bound
                        + (high_bound - low_bound) * (rank - low_count)
                            / (high_count - low_count).max(f64::MIN_POSITIVE)
                }
            };
            Some(Sample {
                labels: Rc::new(labels),
                value,
                at: t,
            })
        })
        .collect()
}

fn promql_bound(text: &str) -> Option<f64> {
    platform_api::monitoring::sample_value(text)
}

/// `a op b` for an arithmetic operator; `None` for a comparison.
fn arithmetic(op: TokenType, a: f64, b: f64) -> Result<Option<f64>> {
    Ok(Some(match op.id() {
        token::T_ADD => a + b,
        token::T_SUB => a - b,
        token::T_MUL => a * b,
        token::T_DIV => a / b,
        token::T_MOD => a % b,
        token::T_POW => a.powf(b),
        token::T_ATAN2 => a.atan2(b),
        _ if op.is_comparison_operator() => return Ok(None),
        _ => return Err(QueryError::unsupported(format!("the operator {op}"))),
    }))
}

fn compare(op: TokenType, a: f64, b: f64) -> Result<bool> {
    Ok(match op.id() {
        token::T_EQLC => a == b,
        token::T_NEQ => a != b,
        token::T_GTR => a > b,
        token::T_LSS => a < b,
        token::T_GTE => a >= b,
        token::T_LTE => a <= b,
        _ => return Err(QueryError::unsupported(format!("the operator {op}"))),
    })
}

/// The labels two vectors' samples are matched on.
fn signature(labels: &Labels, matching: &Option<LabelModifier>) -> Labels {
    labels
        .iter()
        .filter(|(name, _)| name != "__name__")
        .filter(|(name, _)| match matching {
            Some(LabelModifier::Include(on)) => on.labels.contains(name),
            Some(LabelModifier::Exclude(ignoring)) => !ignoring.labels.contains(name),
            None => true,
        })
        .cloned()
        .collect()
}

fn vector_vector(
    binary: &BinaryExpr,
    left: Vec<Sample>,
    right: Vec<Sample>,
    returns_bool: bool,
) -> Result<Vec<Sample>> {
    let op = binary.op;
    let matching = binary.modifier.as_ref().and_then(|m| m.matching.clone());
    let card = binary
        .modifier
        .as_ref()
        .map_or(VectorMatchCardinality::OneToOne, |m| m.card.clone());
    if op.is_set_operator() {
        let right_signatures: Vec<Labels> = right
            .iter()
            .map(|sample| signature(&sample.labels, &matching))
            .collect();
        return Ok(match op.id() {
            token::T_LAND => left
                .into_iter()
                .filter(|s| right_signatures.contains(&signature(&s.labels, &matching)))
                .collect(),
            token::T_LUNLESS => left
                .into_iter()
                .filter(|s| !right_signatures.contains(&signature(&s.labels, &matching)))
                .collect(),
            _ => {
                let left_signatures: Vec<Labels> = left
                    .iter()
                    .map(|sample| signature(&sample.labels, &matching))
                    .collect();
                let mut union = left;
                union.extend(
                    right
                        .into_iter()
                        .filter(|s| !left_signatures.contains(&signature(&s.labels, &matching))),
                );
                union
            }
        });
    }
    // The "one" side, by signature; group_right swaps the sides.
    let (many, one, swapped, include) = match &card {
        VectorMatchCardinality::OneToMany(include) => (right, left, true, include.labels.clone()),
        VectorMatchCardinality::ManyToOne(include) => (left, right, false, include.labels.clone()),
        _ => (left, right, false, Vec::new()),
    };
    let mut by_signature: HashMap<Labels, &Sample> = HashMap::new();
    for sample in &one {
        let key = signature(&sample.labels, &matching);
        if by_signature.insert(key, sample).is_some() {
            return Err(QueryError::bad(
                "many-to-many matching not allowed: matching labels must be unique on one side",
            ));
        }
    }
    let grouped = !matches!(card, VectorMatchCardinality::OneToOne);
    let mut seen: HashMap<Labels, ()> = HashMap::new();
    let mut result = Vec::new();
    for sample in &many {
        let key = signature(&sample.labels, &matching);
        let Some(other) = by_signature.get(&key) else {
            continue;
        };
        if !grouped && seen.insert(key.clone(), ()).is_some() {
            return Err(QueryError::bad(
                "found duplicate series for the match group on the left side; use group_left or group_right",
            ));
        }
        let (a, b) = if swapped {
            (other.value, sample.value)
        } else {
            (sample.value, other.value)
        };
        let value = match arithmetic(op, a, b)? {
            Some(value) => value,
            None => {
                let holds = compare(op, a, b)?;
                if returns_bool {
                    f64::from(u8::from(holds))
                } else if holds {
                    a
                } else {
                    continue;
                }
            }
        };
        let comparison_kept = op.is_comparison_operator() && !returns_bool;
        let mut labels: Labels = if grouped {
            sample
                .labels
                .iter()
                .filter(|(n, _)| n != "__name__")
                .cloned()
                .collect()
        } else if comparison_kept {
            sample.labels.iter().cloned().collect()
        } else {
            match &matching {
                Some(LabelModifier::Include(_)) => key.clone(),
                _ => sample
                    .labels
                    .iter()
                    .filter(|(n, _)| n != "__name__")
                    .cloned()
                    .collect(),
            }
        };
        for name in &include {
            labels.retain(|(label, _)| label != name);
            if let Some(value) = label(&other.labels, name) {
                labels.push((name.clone(), value.to_string()));
            }
        }
        result.push(Sample {
            labels: Rc::new(sorted(labels)),
            value,
            at: sample.at,
        });
    }
    Ok(result)
}
