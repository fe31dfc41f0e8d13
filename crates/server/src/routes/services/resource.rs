//! What every service kind is to the server (`ServiceResource`) and the routes each kind has.

use chrono::{DateTime, Utc};
use platform_api::{Environment, FieldError, GitSourceRequest, Port, ServiceKind};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::seal::Secrets;
use crate::store::organization_resources::Kind;

use crate::store::services::Names;

/// A service kind as the server serves it: its type, request, record and paths are the kind's
/// (`platform_api::ServiceKind`, which the console uses too); the rest is how the server checks,
/// stores and builds its records.
pub trait ServiceResource:
    ServiceKind<Request: ToSchema + GitSourceRequest, Record: ToSchema>
{
    /// The kind in messages: "application".
    const WHAT: &'static str;

    /// Where the record names one of the organization's records (a container registry, a helm
    /// repository), filled with that record's name, address and kind whenever it is read.
    const NAMES: Option<Names> = None;

    /// Checks the request's rules; `kept` names the secrets an update may leave out.
    fn validate(request: &Self::Request, kept: &[&str]) -> Result<(), Vec<FieldError>>;

    /// The request's secret values, stored apart from the record.
    fn secrets(_request: &Self::Request) -> Secrets {
        Secrets::new()
    }

    /// The secrets the record still declares; others are dropped on update.
    fn secret_names(_record: &Self::Record) -> Vec<String> {
        Vec::new()
    }

    /// Checks the rules of a change from `previous` (what a service may become from what it
    /// is), after those of the request.
    fn validate_change(
        _previous: &Self::Record,
        _request: &Self::Request,
    ) -> Result<(), Vec<FieldError>> {
        Ok(())
    }

    /// The request on the cluster of `environment`: its rules there checked, and what the
    /// cluster decides filled in (a managed database's size is its cloud's instance's).
    fn placed(
        request: Self::Request,
        _environment: &Environment,
    ) -> Result<Self::Request, Vec<FieldError>> {
        Ok(request)
    }

    /// The organization's records the request names (a registry, a helm repository), checked
    /// to exist: `(field, kind, id)`.
    fn references(_request: &Self::Request) -> Vec<(String, Kind, Uuid)> {
        Vec::new()
    }

    /// The record of a new service (`previous` is `None`) or of an updated one.
    fn build(
        id: Uuid,
        environment_id: Uuid,
        request: Self::Request,
        previous: Option<&Self::Record>,
    ) -> Self::Record;

    fn name(record: &Self::Record) -> &str;

    /// The record's ports: the public ones are where the service is reached (`links`).
    fn ports(_record: &Self::Record) -> &[Port] {
        &[]
    }

    /// Where the record holds the tag of the image it runs (`$.tag`), if it runs one: a deploy
    /// with `image_tag` sets it.
    fn image_tag_at(_record: &Self::Record) -> Option<&'static str> {
        None
    }

    /// Where the record holds the version of the chart it installs from a helm repository, if
    /// it installs one: a deploy with `chart_version` sets it.
    fn chart_version_at(_record: &Self::Record) -> Option<&'static str> {
        None
    }

    /// The parts of the record that say what runs, beyond the commit (an image, a chart version
    /// and values): a rollback puts back those of the deployment it deploys again.
    const RESTORED_BY_ROLLBACK: &'static [&'static str] = &[];

    /// Whether an update may leave out any field (it keeps its value): the kinds whose edit
    /// request in the production document has no required field. Their `completed_update`
    /// fills the fields left out.
    const PARTIAL_EDIT: bool = false;

    /// The body of an update as a whole request (see `PARTIAL_EDIT`).
    fn completed_update(_previous: &Self::Record, body: Value) -> Value {
        body
    }
}

/// `body`'s top-level fields over `record`'s: an edit that leaves a field out keeps it.
pub fn over(record: impl Serialize, body: Value) -> Value {
    match (
        serde_json::to_value(record).expect("a request serializes"),
        body,
    ) {
        (Value::Object(mut merged), Value::Object(body)) => {
            merged.extend(body);
            Value::Object(merged)
        }
        (_, body) => body,
    }
}

/// When a service was created and last updated, for `build`.
pub fn timestamps(
    previous_created_at: Option<DateTime<Utc>>,
) -> (DateTime<Utc>, Option<DateTime<Utc>>) {
    let now = Utc::now();
    match previous_created_at {
        Some(created_at) => (created_at, Some(now)),
        None => (now, None),
    }
}
