//! One error type for every handler, answered in the error body of DESIGN §3, and the request
//! extractors whose rejections answer in that body too (never a plain-text rejection).

use axum::extract::rejection::PathRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::RETRY_AFTER;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use platform_api::{ErrorBody, FieldError};
use serde::de::DeserializeOwned;

#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    fields: Vec<FieldError>,
    /// Seconds after which the request may be sent again, as `Retry-After`.
    retry_after: Option<u64>,
}

pub type ApiResult<T> = Result<T, ApiError>;

/// As the background work (auto-deploy, cron runs) logs an error of a request's kind.
impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            fields: Vec::new(),
            retry_after: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "BAD_REQUEST", message)
    }

    /// A 400 with a code of its own, for a request that is well formed but cannot be answered.
    pub fn unanswerable(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// A 400 listing each field that broke a rule, as one sentence (a rule's message may end
    /// with its own full stop).
    pub fn invalid(fields: Vec<FieldError>) -> Self {
        let summary = fields
            .iter()
            .map(|error| format!("{} {}", error.field, error.message.trim_end_matches('.')))
            .collect::<Vec<_>>()
            .join("; ");
        Self {
            fields,
            ..Self::new(
                StatusCode::BAD_REQUEST,
                "VALIDATION_ERROR",
                format!("The request is not valid: {summary}."),
            )
        }
    }

    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "UNAUTHORIZED", message)
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "FORBIDDEN", message)
    }

    /// 403 for a call only a person signed in through the identity provider makes (their
    /// account, their organizations), not an API token, whatever its role.
    pub fn people_only(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "PEOPLE_ONLY", message)
    }

    /// 403 for a call only an organization's owner makes, whatever the caller's role.
    pub fn owner_only(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "OWNER_ONLY", message)
    }

    pub fn not_found(what: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!("No {what} has this id in your organization."),
        )
    }

    /// 404 of a request that names no record by id but asks for those that match (`message`
    /// says what none matched).
    pub fn none_match(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "NOT_FOUND", message)
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, "CONFLICT", message)
    }

    /// A 409 naming the field whose value is taken.
    pub fn taken(field: &str, what: &str) -> Self {
        Self {
            fields: vec![FieldError::new(field, "is already taken")],
            ..Self::conflict(format!("A {what} with this {field} already exists here."))
        }
    }

    pub fn internal(error: impl std::fmt::Display) -> Self {
        tracing::error!(%error, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL_ERROR",
            "The server failed to handle the request; it has been logged.",
        )
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// This error as one service's of a selection named at `field` (`application_ids[2]`): its
    /// fields under that one, or that one with its message.
    pub fn within(self, field: &str, name: &str) -> Self {
        let fields = if self.fields.is_empty() {
            vec![FieldError::new(field, format!("{name}: {}", self.message))]
        } else {
            self.fields
                .into_iter()
                .map(|error| {
                    FieldError::new(
                        format!("{field}.{}", error.field),
                        format!("{name}: {}", error.message),
                    )
                })
                .collect()
        };
        Self { fields, ..self }
    }

    /// The errors of the services of a selection, in one answer that names each (nothing was
    /// started): a 400 when one broke a rule, a 409 when all are refused for what they are
    /// doing; any other error as it is.
    pub fn of_selection(errors: Vec<ApiError>) -> Self {
        if let Some(other) = errors.iter().position(|error| {
            !matches!(error.status, StatusCode::BAD_REQUEST | StatusCode::CONFLICT)
        }) {
            return errors
                .into_iter()
                .nth(other)
                .expect("the position is of the list");
        }
        let invalid = errors
            .iter()
            .any(|error| error.status == StatusCode::BAD_REQUEST);
        let fields: Vec<FieldError> = errors.into_iter().flat_map(|error| error.fields).collect();
        if invalid {
            return Self::invalid(fields);
        }
        let summary = fields
            .iter()
            .map(|error| error.message.trim_end_matches('.'))
            .collect::<Vec<_>>()
            .join("; ");
        Self {
            fields,
            ..Self::conflict(format!("Nothing was started: {summary}."))
        }
    }

    /// A 404 of a record the request's body names by id reads as a 400 naming the field and
    /// `rule`; other errors stay as they are.
    pub fn naming(self, field: &str, rule: &str) -> Self {
        if self.status == StatusCode::NOT_FOUND {
            ApiError::invalid(vec![FieldError::new(field, rule)])
        } else {
            self
        }
    }
}

impl From<crate::untrusted::Refused> for ApiError {
    fn from(refused: crate::untrusted::Refused) -> Self {
        use crate::untrusted::Refused;
        match refused {
            Refused::TooLarge(message) => Self::unanswerable("CONTENT_TOO_LARGE", message),
            Refused::TooDeep(message) => Self::unanswerable("CONTENT_TOO_DEEP", message),
            Refused::Busy => Self::busy(),
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        if is_busy(&error) {
            Self::busy()
        } else {
            Self::internal(error)
        }
    }
}

/// Whether the database was too busy to answer in time: its write lock held past the busy
/// timeout, or no connection free. The request changed nothing (its transaction rolled back).
fn is_busy(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut => true,
        sqlx::Error::Database(database) => database
            .code()
            .and_then(|code| code.parse::<i32>().ok())
            // The primary result code of an extended one: SQLITE_BUSY or SQLITE_LOCKED.
            .is_some_and(|code| matches!(code & 0xff, 5 | 6)),
        _ => false,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            status: self.status.as_u16(),
            error: self.code.to_string(),
            message: self.message,
            fields: self.fields,
        };
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// Maps a UNIQUE violation to a 409 naming the field; other errors stay internal.
pub trait UniqueViolation<T> {
    fn on_unique_violation(self, field: &str, what: &str) -> ApiResult<T>;
}

impl<T> UniqueViolation<T> for Result<T, sqlx::Error> {
    fn on_unique_violation(self, field: &str, what: &str) -> ApiResult<T> {
        self.map_err(|error| match &error {
            sqlx::Error::Database(db) if db.is_unique_violation() => ApiError::taken(field, what),
            _ => ApiError::from(error),
        })
    }
}

/// A body as bytes (a text route's, such as a kubeconfig's), its refusals in the API's error
/// shape: over `BODY_LIMIT_BYTES` a 413.
pub struct ApiBytes(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for ApiBytes {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::body::Bytes::from_request(request, state).await {
            Ok(bytes) => Ok(ApiBytes(bytes)),
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError::too_large(BODY_LIMIT_BYTES))
            }
            Err(rejection) => Err(ApiError::bad_request(rejection.body_text())),
        }
    }
}

/// JSON body whose errors answer 400 in the error body, naming the field that is missing or of
/// the wrong type.
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned + Send + 'static,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = request
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .map(|media| {
                let media = media.trim().to_ascii_lowercase();
                media == "application/json" || media.ends_with("+json")
            });
        let ApiBytes(bytes) = ApiBytes::from_request(request, state).await?;
        // A body is JSON said so; a request without one (an action) needs no content type.
        if !bytes.is_empty() && json == Some(false) {
            return Err(ApiError::unsupported_media_type());
        }
        let bytes = if bytes.is_empty() {
            axum::body::Bytes::from_static(b"{}")
        } else {
            bytes
        };
        // A small body is read at once; a larger one on a parser's thread, off the workers.
        if bytes.len() <= READ_IN_PLACE_BYTES {
            return read_body(&bytes).map(ApiJson);
        }
        crate::untrusted::offload(move || read_body(&bytes))
            .await
            .map(ApiJson)
    }
}

/// The largest body read on the worker that received it: parsed in well under a millisecond.
const READ_IN_PLACE_BYTES: usize = 16 * 1024;

/// A body read as `T`: its nesting counted before a deserializer recurses into it, its strings
/// within bounds, its fields known.
fn read_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let most = crate::untrusted::MOST_DEPTH;
    if crate::untrusted::json_depth::depth(bytes) > most {
        return Err(crate::untrusted::too_deep("The body", "a request's body", most).into());
    }
    // A body no longer than the bound cannot hold a longer string: only a longer one is read
    // twice.
    if bytes.len() > platform_api::rules::TEXT_MAX_BYTES {
        texts_within_bounds(bytes)?;
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let read = read_known(&mut deserializer)?;
    // One JSON value, and nothing after it but white space.
    deserializer.end().map_err(|_| {
        ApiError::bad_request("The body is not valid JSON: it goes on after its value.")
    })?;
    Ok(read)
}

/// 400 naming each field of `body` holding a string longer than any request may carry.
fn texts_within_bounds(body: &[u8]) -> Result<(), ApiError> {
    let value: serde_json::Value = serde_json::from_slice(body)
        .map_err(|error| ApiError::bad_request(format!("The body is not valid JSON: {error}.")))?;
    match platform_api::rules::texts_within_bounds(&value) {
        refused if refused.is_empty() => Ok(()),
        refused => Err(ApiError::invalid(refused)),
    }
}

/// A JSON value read as `T`, its errors named as `ApiJson` names them.
pub fn from_json<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, ApiError> {
    read_known(value)
}

/// `T` read from `deserializer`, refusing the fields it does not know (400 naming each), except
/// those the production platform's document gives that this server leaves alone.
fn read_known<'de, T, D>(deserializer: D) -> Result<T, ApiError>
where
    T: serde::Deserialize<'de>,
    D: serde::Deserializer<'de, Error = serde_json::Error>,
{
    let mut unknown = Vec::new();
    let mut notice = |path: serde_ignored::Path| unknown.push(path.to_string());
    let observed = serde_ignored::Deserializer::new(deserializer, &mut notice);
    let (read, flattened) =
        platform_api::flat::noticing(|| serde_path_to_error::deserialize(observed));
    let value = read.map_err(|error| match flattened.wrong {
        Some((path, message)) => wrong_value(path, message),
        None => json_error(error),
    })?;
    let refused: Vec<FieldError> = unknown
        .into_iter()
        .chain(flattened.unknown)
        .filter(|path| !crate::platform_fields::left_alone(path))
        .map(|path| FieldError::new(path, "is not a field of this request"))
        .collect();
    if refused.is_empty() {
        Ok(value)
    } else {
        Err(ApiError::invalid(refused))
    }
}

fn json_error(error: serde_path_to_error::Error<serde_json::Error>) -> ApiError {
    let inner = error.inner();
    if inner.is_syntax() || inner.is_eof() {
        return ApiError::bad_request(format!("The body is not valid JSON: {inner}."));
    }
    wrong_value(error.path().to_string(), inner.to_string())
}

/// A 400 naming the field at `path` (serde's; `.` is the body as a whole) and what is wrong.
fn wrong_value(path: String, message: String) -> ApiError {
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .to_string();
    // serde reports a missing field at its parent's path: name the field itself.
    if let Some(missing) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        let field = if path == "." {
            missing.to_string()
        } else {
            format!("{path}.{missing}")
        };
        return ApiError::invalid(vec![FieldError::new(field, "is required")]);
    }
    let field = if path == "." {
        "body".to_string()
    } else {
        path
    };
    ApiError::invalid(vec![FieldError::new(field, message)])
}

/// Path parameters whose errors (a malformed uuid) answer 400 in the error body.
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    /// A parameter that does not read is a 400 naming it (`application_id`), as a body's field
    /// or a query's parameter is.
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let template = parts
            .extensions
            .get::<axum::extract::MatchedPath>()
            .map(|matched| matched.as_str().to_string())
            .unwrap_or_default();
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(value)| ApiPath(value))
            .map_err(|rejection: PathRejection| path_error(&template, rejection))
    }
}

/// The 400 of a path parameter that does not read, naming it by the route's `template`.
fn path_error(template: &str, rejection: PathRejection) -> ApiError {
    use axum::extract::path::ErrorKind;
    let PathRejection::FailedToDeserializePathParams(failed) = &rejection else {
        return ApiError::bad_request(format!("The path is not valid: {}.", rejection.body_text()));
    };
    let names: Vec<&str> = template
        .split('/')
        .filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
        .collect();
    let (field, value) = match failed.kind() {
        ErrorKind::ParseErrorAtKey { key, value, .. }
        | ErrorKind::DeserializeError { key, value, .. } => (key.clone(), value.clone()),
        ErrorKind::ParseErrorAtIndex { index, value, .. } => (
            names
                .get(*index)
                .map_or_else(|| format!("path[{index}]"), |name| name.to_string()),
            value.clone(),
        ),
        ErrorKind::ParseError { value, .. } => (
            names
                .first()
                .map_or_else(|| "path".to_string(), |name| name.to_string()),
            value.clone(),
        ),
        _ => ("path".to_string(), String::new()),
    };
    ApiError::invalid(vec![FieldError::new(
        field,
        format!("must be a UUID (it is {value:?})"),
    )])
}

/// The largest request body the API reads: far above any request of the spec; a larger one
/// answers 413.
pub const BODY_LIMIT_BYTES: usize = 1024 * 1024;
/// The longest path and query the API reads; a longer one answers 414.
pub const URI_LIMIT_BYTES: usize = 8 * 1024;
/// The most header bytes (names and values) the API reads; more answer 431.
pub const HEADERS_LIMIT_BYTES: usize = 32 * 1024;

impl ApiError {
    /// A body over the server's limit.
    /// 413 for a body larger than `limit` bytes (a whole number of MiB).
    pub fn too_large(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "PAYLOAD_TOO_LARGE",
            format!("The body is larger than {} MiB.", limit / (1024 * 1024)),
        )
    }

    pub fn uri_too_long() -> Self {
        Self::new(
            StatusCode::URI_TOO_LONG,
            "URI_TOO_LONG",
            format!(
                "The path and query are longer than {} KiB.",
                URI_LIMIT_BYTES / 1024
            ),
        )
    }

    pub fn headers_too_large() -> Self {
        Self::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "HEADERS_TOO_LARGE",
            format!(
                "The headers are larger than {} KiB.",
                HEADERS_LIMIT_BYTES / 1024
            ),
        )
    }

    pub fn unsupported_media_type() -> Self {
        Self::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "UNSUPPORTED_MEDIA_TYPE",
            "The body must be JSON, sent with Content-Type: application/json.",
        )
    }

    pub fn no_route() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            "No API route has this path.",
        )
    }

    pub fn method_not_allowed() -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "METHOD_NOT_ALLOWED",
            "This path does not accept this method.",
        )
    }

    /// The platform's API a forwarding server sends to did not answer (`forward`).
    pub fn upstream_unreachable(upstream: &reqwest::Url) -> Self {
        Self::new(
            StatusCode::BAD_GATEWAY,
            "UPSTREAM_UNREACHABLE",
            format!("The platform's API at {upstream} could not be reached."),
        )
    }

    pub fn upstream_timeout(upstream: &reqwest::Url, within: std::time::Duration) -> Self {
        Self::new(
            StatusCode::GATEWAY_TIMEOUT,
            "UPSTREAM_TIMEOUT",
            format!(
                "The platform's API at {upstream} did not answer within {} s.",
                within.as_secs()
            ),
        )
    }
}

/// How long a client waits before sending again a request the server was too busy for.
pub const BUSY_RETRY_SECONDS: u64 = 2;

impl ApiError {
    /// 503: the server is too busy for this request now (its database, or its engine's queue);
    /// nothing was changed, and the same request may be sent again after `Retry-After`.
    pub fn busy() -> Self {
        tracing::warn!("a request was refused: the server is busy");
        Self {
            retry_after: Some(BUSY_RETRY_SECONDS),
            ..Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "SERVICE_BUSY",
                format!("The server is too busy to answer now; nothing was changed. Retry in {BUSY_RETRY_SECONDS} s."),
            )
        }
    }

    pub fn rate_limited(limit: u32, reset_seconds: u64) -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "RATE_LIMITED",
            format!(
                "This token made more than {limit} requests this minute; retry in {reset_seconds} s."
            ),
        )
    }
}

/// Query parameters whose errors (a malformed id) answer 400 in the error body.
pub struct ApiQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    /// A parameter that does not read is a 400 naming it, as a body's field is.
    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or_default();
        let deserializer =
            serde_urlencoded::Deserializer::new(url::form_urlencoded::parse(query.as_bytes()));
        serde_path_to_error::deserialize(deserializer)
            .map(ApiQuery)
            .map_err(|error| {
                let path = error.path().to_string();
                let message = error.into_inner().to_string();
                // A missing parameter is named by the message alone.
                let field = match (path.as_str(), message.split('`').nth(1)) {
                    (".", Some(missing)) => missing.to_string(),
                    (".", None) => "query".to_string(),
                    _ => path,
                };
                ApiError::invalid(vec![FieldError::new(field, message)])
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_reads_as_one_sentence_whatever_its_rules_end_with() {
        let refused = ApiError::invalid(vec![
            FieldError::new("alert_receiver", "it did not answer in time."),
            FieldError::new("name", "is required"),
        ]);
        assert_eq!(
            refused.message,
            "The request is not valid: alert_receiver it did not answer in time; name is required."
        );
    }
}
