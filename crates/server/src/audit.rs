//! The audit log. Each change made through the API is recorded by `record`, called with the
//! transaction that makes the change: the entry is there if and only if the change is. Entries are
//! read back by `GET /organization/{id}/events`.

use chrono::{DateTime, Utc};
use platform_api::audit::{
    EventLinks, EventQuery, EventTarget, EventType, EventWindow, OrganizationEvent,
    OrganizationEventList, Origin, SubTargetType, TargetLevel, TargetType, TargetsQuery,
};
use platform_api::ServiceType;
use serde::Serialize;
use serde_json::Value;
use sqlx::{QueryBuilder, Sqlite, SqliteConnection, SqlitePool};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::caller::{Caller, Client, Permission};
use crate::db;
use crate::error::{ApiError, ApiResult};

/// What a change was made to: a resource, with the project and environment it belongs to.
#[derive(Clone, Debug)]
pub struct Target {
    kind: TargetType,
    id: Option<Uuid>,
    name: String,
    project: Option<(Uuid, String)>,
    environment: Option<(Uuid, String)>,
}

impl Target {
    /// A resource of the organization (a cluster, a registry, a webhook, the organization).
    pub fn new(kind: TargetType, id: Uuid, name: impl Into<String>) -> Self {
        Self {
            kind,
            id: Some(id),
            name: name.into(),
            project: None,
            environment: None,
        }
    }

    /// The organization itself, for the changes made to its own parts (tokens, roles, groups).
    pub async fn organization(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<Self> {
        let name = crate::store::organizations::name(conn, id).await?;
        Ok(Self::new(TargetType::Organization, id, name))
    }

    pub async fn project(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<Self> {
        let name: String = sqlx::query_scalar("SELECT name FROM projects WHERE id = ?")
            .bind(id.hyphenated())
            .fetch_optional(conn)
            .await?
            .ok_or_else(|| ApiError::not_found("project"))?;
        Ok(Self {
            project: Some((id, name.clone())),
            ..Self::new(TargetType::Project, id, name)
        })
    }

    pub async fn environment(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<Self> {
        #[derive(sqlx::FromRow)]
        struct Row {
            name: String,
            #[sqlx(try_from = "Hyphenated")]
            project_id: Uuid,
            project_name: String,
        }
        let row: Row = sqlx::query_as(
            "SELECT e.name, p.id AS project_id, p.name AS project_name
             FROM environments e JOIN projects p ON p.id = e.project_id WHERE e.id = ?",
        )
        .bind(id.hyphenated())
        .fetch_optional(conn)
        .await?
        .ok_or_else(|| ApiError::not_found("environment"))?;
        Ok(Self {
            project: Some((row.project_id, row.project_name)),
            environment: Some((id, row.name.clone())),
            ..Self::new(TargetType::Environment, id, row.name)
        })
    }

    /// A service of any kind.
    pub async fn service(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<Self> {
        #[derive(sqlx::FromRow)]
        struct Row {
            name: String,
            kind: ServiceType,
            #[sqlx(try_from = "Hyphenated")]
            environment_id: Uuid,
            environment_name: String,
            #[sqlx(try_from = "Hyphenated")]
            project_id: Uuid,
            project_name: String,
        }
        let row: Row = sqlx::query_as(
            "SELECT s.name, s.kind, e.id AS environment_id, e.name AS environment_name,
                    p.id AS project_id, p.name AS project_name
             FROM services s JOIN environments e ON e.id = s.environment_id
             JOIN projects p ON p.id = e.project_id WHERE s.id = ?",
        )
        .bind(id.hyphenated())
        .fetch_optional(conn)
        .await?
        .ok_or_else(|| ApiError::not_found("service"))?;
        Ok(Self {
            project: Some((row.project_id, row.project_name)),
            environment: Some((row.environment_id, row.environment_name)),
            ..Self::new(service_target(row.kind), id, row.name)
        })
    }
}

/// The target type of a service's kind.
pub fn service_target(kind: ServiceType) -> TargetType {
    match kind {
        ServiceType::Application => TargetType::Application,
        ServiceType::Container => TargetType::Container,
        ServiceType::Database => TargetType::Database,
        ServiceType::Job => TargetType::Job,
        ServiceType::Helm => TargetType::Helm,
        ServiceType::Terraform => TargetType::Terraform,
        ServiceType::Other(kind) => TargetType::Other(kind),
    }
}

/// One change to record: what was done to which target, and the target before and after (as
/// callers see it: secret values are never in it).
#[derive(Debug)]
pub struct Change {
    event_type: EventType,
    target: Target,
    sub_target: Option<SubTargetType>,
    before: Option<Value>,
    after: Option<Value>,
    changed_secrets: Vec<String>,
}

impl Change {
    pub fn new(event_type: EventType, target: Target) -> Self {
        Self {
            event_type,
            target,
            sub_target: None,
            before: None,
            after: None,
            changed_secrets: Vec::new(),
        }
    }

    /// The change was made to this part of the target (a variable, a token).
    pub fn of(mut self, sub_target: SubTargetType) -> Self {
        self.sub_target = Some(sub_target);
        self
    }

    pub fn before(mut self, before: &impl Serialize) -> Self {
        self.before = serde_json::to_value(before).ok();
        self
    }

    pub fn after(mut self, after: &impl Serialize) -> Self {
        self.after = serde_json::to_value(after).ok();
        self
    }

    /// The target's part as it was and as it is, each when there is one (none before a
    /// creation, none after a deletion).
    pub fn between<T: Serialize>(mut self, (before, after): (Option<&T>, Option<&T>)) -> Self {
        self.before = before.and_then(|before| serde_json::to_value(before).ok());
        self.after = after.and_then(|after| serde_json::to_value(after).ok());
        self
    }

    /// The secret fields whose value the change set (their values are never recorded).
    pub fn secrets(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.changed_secrets = names.into_iter().map(Into::into).collect();
        self.changed_secrets.sort();
        self.changed_secrets.dedup();
        self
    }
}

/// The least permission that reads an entry about `target` (its `sub_target`): what reading the
/// target itself takes. The entries of webhooks and alert receivers (whose URLs are credentials),
/// API tokens, roles and credentials are ADMIN's; every other entry is READ's. Migration 0024
/// marks the entries written before it by the same list.
fn readable_by(target: TargetType, sub_target: Option<SubTargetType>) -> Permission {
    let admins = matches!(target, TargetType::Webhook | TargetType::MembersAndRoles)
        || matches!(
            sub_target,
            Some(
                SubTargetType::ApiToken
                    | SubTargetType::AlertReceiver
                    | SubTargetType::ClusterCredentials
                    | SubTargetType::CloudProviderCredentials
                    | SubTargetType::CustomRole
                    | SubTargetType::MemberRole
            )
        );
    if admins {
        Permission::Admin
    } else {
        Permission::Read
    }
}

/// Records `change`, made by `caller`, in the transaction `conn` that makes it.
pub async fn record(conn: &mut SqliteConnection, caller: &Caller, change: Change) -> ApiResult<()> {
    insert(
        conn,
        caller.organization_id,
        &caller.name,
        &caller.client,
        change,
    )
    .await
}

/// Records `change`, made by `who` through `origin` rather than by a caller of the API (a push,
/// for auto-deploy), in the transaction `conn` that makes it.
pub async fn record_as(
    conn: &mut SqliteConnection,
    (organization_id, who): (Uuid, &str),
    origin: Origin,
    change: Change,
) -> ApiResult<()> {
    let client = Client {
        origin,
        user_agent: None,
    };
    insert(conn, organization_id, who, &client, change).await
}

/// An API token refused: deleted, or expired.
#[derive(sqlx::FromRow)]
pub struct RefusedToken {
    #[sqlx(try_from = "Hyphenated")]
    pub organization_id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub name: String,
}

/// The deleted token whose hash is `hash`, if one was.
pub async fn revoked_token(db: &SqlitePool, hash: &str) -> ApiResult<Option<RefusedToken>> {
    Ok(sqlx::query_as(
        "SELECT organization_id, token_id AS id, name FROM revoked_api_tokens WHERE token_hash = ?",
    )
    .bind(hash)
    .fetch_optional(db)
    .await?)
}

/// How long after a refusal of a token the next is not recorded again: a client retrying with
/// a dead token must not fill the log.
const REFUSALS_APART_SECONDS: i64 = 60;

/// Records that `token` was refused (`reason`), unless it was in the last minute.
pub async fn record_refusal(
    writes: &SqlitePool,
    token: &RefusedToken,
    reason: &str,
    client: Client,
) -> ApiResult<()> {
    let mut tx = db::begin_write(writes).await?;
    let since = Utc::now() - chrono::Duration::seconds(REFUSALS_APART_SECONDS);
    let recent: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM audit_events WHERE organization_id = ? AND target_id = ?
             AND event_type = ? AND at_nanos > ?)",
    )
    .bind(token.organization_id.hyphenated())
    .bind(token.id.hyphenated())
    .bind(EventType::AccessRefused)
    .bind(since.timestamp_nanos_opt().unwrap_or_default())
    .fetch_one(&mut *tx)
    .await?;
    if recent {
        return Ok(());
    }
    let target = Target::new(TargetType::Organization, token.id, token.name.clone());
    let change = Change::new(EventType::AccessRefused, target)
        .of(SubTargetType::ApiToken)
        .after(&serde_json::json!({ "reason": reason }));
    let who = format!("API token {}", token.name);
    insert(&mut tx, token.organization_id, &who, &client, change).await?;
    tx.commit().await?;
    Ok(())
}

async fn insert(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    who: &str,
    client: &Client,
    change: Change,
) -> ApiResult<()> {
    let now = Utc::now();
    let text = |value: &Option<Value>| value.clone().map(abridged).map(|v| v.to_string());
    let target = &change.target;
    sqlx::query(
        "INSERT INTO audit_events (id, organization_id, at_nanos, event_type, target_type,
             target_id, target_name, sub_target_type, change, original_change, changed_secrets,
             origin, triggered_by, user_agent, project_id, project_name, environment_id,
             environment_name, readable_by)
         VALUES (?, ?, MAX(?, COALESCE((SELECT MAX(at_nanos) + 1 FROM audit_events
                                        WHERE organization_id = ?), 0)),
                 ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(Uuid::new_v4().hyphenated())
    .bind(organization_id.hyphenated())
    .bind(now.timestamp_nanos_opt().unwrap_or(i64::MAX))
    .bind(organization_id.hyphenated())
    .bind(change.event_type)
    .bind(target.kind)
    .bind(target.id.map(|id| id.hyphenated()))
    .bind(&target.name)
    .bind(change.sub_target.map(SubTargetType::as_str))
    .bind(text(&change.after).unwrap_or_default())
    .bind(text(&change.before))
    .bind(serde_json::to_string(&change.changed_secrets).map_err(ApiError::internal)?)
    .bind(client.origin)
    .bind(who)
    .bind(client.user_agent.as_deref())
    .bind(target.project.as_ref().map(|(id, _)| id.hyphenated()))
    .bind(
        target
            .project
            .as_ref()
            .map_or("", |(_, name)| name.as_str()),
    )
    .bind(target.environment.as_ref().map(|(id, _)| id.hyphenated()))
    .bind(
        target
            .environment
            .as_ref()
            .map_or("", |(_, name)| name.as_str()),
    )
    .bind(readable_by(target.kind, change.sub_target).wire())
    .execute(conn)
    .await?;
    Ok(())
}

/// The most an entry's `change` or `original_change` may weigh.
pub const ENTRY_MAX_BYTES: usize = 64 * 1024;

/// What a list keeps of its items when an entry is cut to fit.
const ITEMS_KEPT: usize = 100;

/// `change` as it fits in an entry: whole when it does; else without its values, each list of
/// named items as the list of their names (a large import is recorded by its counts and keys),
/// then with each list cut to its first items and their count. What was left out is said in
/// `abridged`.
fn abridged(change: Value) -> Value {
    let fits = |value: &Value| value.to_string().len() <= ENTRY_MAX_BYTES;
    if fits(&change) {
        return change;
    }
    let mut change = change;
    without_values(&mut change);
    let mut said = "values left out: the change is larger than the log keeps";
    if !fits(&change) {
        cut_lists(&mut change);
        said = "values left out and lists cut: the change is larger than the log keeps";
    }
    if !fits(&change) {
        return serde_json::json!({
            "abridged": "left out: the change is larger than the log keeps, even without its values",
        });
    }
    match change {
        Value::Object(mut object) => {
            object.insert("abridged".to_string(), Value::from(said));
            Value::Object(object)
        }
        other => serde_json::json!({ "abridged": said, "change": other }),
    }
}

/// Every field named `value` emptied, every long text shortened to its length, and every list
/// of items each named (`name` or `key`) made the list of their names.
fn without_values(value: &mut Value) {
    if let Value::Array(items) = value {
        let names: Option<Vec<Value>> = items
            .iter()
            .map(|item| {
                item.get("name")
                    .or_else(|| item.get("key"))
                    .filter(|n| n.is_string())
                    .cloned()
            })
            .collect();
        if let Some(names) = names.filter(|names| !names.is_empty()) {
            *items = names;
            return;
        }
    }
    match value {
        Value::Object(object) => {
            for (field, inner) in object.iter_mut() {
                if field == "value" && !inner.is_null() {
                    *inner = Value::Null;
                } else {
                    without_values(inner);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(without_values),
        Value::String(text) if text.len() > 256 => {
            *text = format!("({} bytes left out)", text.len());
        }
        _ => {}
    }
}

/// Each list cut to its first `ITEMS_KEPT` items, a last one counting the rest.
fn cut_lists(value: &mut Value) {
    match value {
        Value::Object(object) => object.values_mut().for_each(cut_lists),
        Value::Array(items) => {
            if items.len() > ITEMS_KEPT {
                let left_out = items.len() - ITEMS_KEPT;
                items.truncate(ITEMS_KEPT);
                items.push(Value::from(format!("({left_out} more left out)")));
            }
            items.iter_mut().for_each(cut_lists);
        }
        _ => {}
    }
}

/// A plain variable made secret: what names its value in the entries written before.
pub struct MadeSecret<'a> {
    pub id: Uuid,
    pub key: &'a str,
    pub scope: &'a str,
    pub plain_value: &'a str,
}

/// Takes the value of `made` out of the log, everywhere it appeared while it was plain: the
/// entries about `targets` (the variable's parent, and those of its aliases and overrides),
/// before and after each change. In the transaction that makes it secret.
pub async fn seal_made_secret(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    targets: &[Uuid],
    made: &MadeSecret<'_>,
) -> ApiResult<()> {
    for target in targets {
        #[derive(sqlx::FromRow)]
        struct Entry {
            id: String,
            change: String,
            original_change: Option<String>,
        }
        let entries: Vec<Entry> = sqlx::query_as(
            "SELECT id, change, original_change FROM audit_events
             WHERE organization_id = ? AND target_id = ? AND sub_target_type IN (?, ?)",
        )
        .bind(organization_id.hyphenated())
        .bind(target.hyphenated())
        .bind(SubTargetType::Variable)
        .bind(SubTargetType::Secret)
        .fetch_all(&mut *conn)
        .await?;
        for entry in entries {
            let (change, changed) = sealed_text(&entry.change, made);
            let (original_change, original_changed) = match entry.original_change {
                Some(text) => {
                    let (text, changed) = sealed_text(&text, made);
                    (Some(text), changed)
                }
                None => (None, false),
            };
            if changed || original_changed {
                sqlx::query("UPDATE audit_events SET change = ?, original_change = ? WHERE id = ?")
                    .bind(change)
                    .bind(original_change)
                    .bind(entry.id)
                    .execute(&mut *conn)
                    .await?;
            }
        }
    }
    Ok(())
}

/// `text` (an entry's JSON) with the value of `made` sealed, and whether it changed.
fn sealed_text(text: &str, made: &MadeSecret<'_>) -> (String, bool) {
    let Ok(mut value) = serde_json::from_str::<Value>(text) else {
        return (text.to_string(), false);
    };
    if seal(&mut value, made) {
        (value.to_string(), true)
    } else {
        (text.to_string(), false)
    }
}

/// Seals in `value` each place `made`'s plain value is shown: the `value` of the variable's
/// object (by its id, or an import's by its key and scope, or an alias's or override's reference
/// to it) and its key's value in a list of keys and values. Whether anything was sealed.
fn seal(value: &mut Value, made: &MadeSecret<'_>) -> bool {
    match value {
        Value::Object(object) => {
            let text = |field: &str| object.get(field).and_then(Value::as_str);
            let names_it = text("id") == Some(made.id.to_string().as_str())
                || (text("name") == Some(made.key) && text("scope") == Some(made.scope));
            let mut sealed = false;
            if names_it && object.get("value").is_some_and(|v| !v.is_null()) {
                object.insert("value".to_string(), Value::Null);
                sealed = true;
            }
            if object.get(made.key).and_then(Value::as_str) == Some(made.plain_value) {
                object.insert(made.key.to_string(), Value::from(SEALED));
                sealed = true;
            }
            for inner in object.values_mut() {
                sealed |= seal(inner, made);
            }
            sealed
        }
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |sealed, item| seal(item, made) | sealed),
        _ => false,
    }
}

/// How a list of keys and values shows a secret's.
pub const SEALED: &str = "(secret)";

#[derive(sqlx::FromRow)]
struct EventRow {
    #[sqlx(try_from = "Hyphenated")]
    id: Uuid,
    at_nanos: i64,
    event_type: EventType,
    target_type: TargetType,
    #[sqlx(try_from = "db::MaybeId")]
    target_id: Option<Uuid>,
    target_name: String,
    sub_target_type: Option<SubTargetType>,
    change: String,
    original_change: Option<String>,
    changed_secrets: String,
    origin: Origin,
    triggered_by: String,
    user_agent: Option<String>,
    #[sqlx(try_from = "db::MaybeId")]
    project_id: Option<Uuid>,
    project_name: String,
    #[sqlx(try_from = "db::MaybeId")]
    environment_id: Option<Uuid>,
    environment_name: String,
}

impl EventRow {
    fn event(self) -> ApiResult<OrganizationEvent> {
        Ok(OrganizationEvent {
            id: self.id,
            timestamp: DateTime::from_timestamp_nanos(self.at_nanos),
            event_type: self.event_type,
            target_id: self.target_id,
            target_name: self.target_name,
            target_type: self.target_type,
            sub_target_type: self.sub_target_type,
            change: self.change,
            origin: self.origin,
            triggered_by: self.triggered_by,
            project_id: self.project_id,
            project_name: self.project_name,
            environment_id: self.environment_id,
            environment_name: self.environment_name,
            user_agent: self.user_agent,
            original_change: self.original_change,
            changed_secrets: serde_json::from_str(&self.changed_secrets)
                .map_err(ApiError::internal)?,
        })
    }
}

/// The `WHERE` of the query's filters, in the organization, of the entries `reader` may read.
fn filtered<'q>(
    builder: &mut QueryBuilder<'q, Sqlite>,
    organization_id: Uuid,
    reader: Permission,
    query: &'q EventQuery,
    window: &EventWindow,
) {
    builder
        .push(" WHERE organization_id = ")
        .push_bind(organization_id.to_string());
    builder.push(" AND readable_by IN (");
    let mut readable = builder.separated(", ");
    for permission in Permission::ALL.into_iter().filter(|p| *p <= reader) {
        readable.push_bind(permission.wire().as_str());
    }
    builder.push(")");
    let mut equal = |column: &str, value: Option<String>| {
        if let Some(value) = value {
            builder.push(format!(" AND {column} = ")).push_bind(value);
        }
    };
    equal("event_type", query.event_type.map(|t| t.as_str().into()));
    equal("target_type", query.target_type.map(|t| t.as_str().into()));
    equal("target_id", query.target_id.map(|id| id.to_string()));
    equal(
        "sub_target_type",
        query.sub_target_type.map(|t| t.as_str().into()),
    );
    equal("triggered_by", query.triggered_by.clone());
    equal("origin", query.origin.map(|o| o.as_str().into()));
    equal(
        "project_id",
        query.service_project_id.map(|id| id.to_string()),
    );
    equal(
        "environment_id",
        query.service_environment_id.map(|id| id.to_string()),
    );
    if let Some(from) = window.from_nanos {
        builder.push(" AND at_nanos >= ").push_bind(from);
    }
    if let Some(to) = window.to_nanos {
        builder.push(" AND at_nanos <= ").push_bind(to);
    }
}

/// How many targets a list of them holds at most.
const TARGETS_MAX: i64 = 1000;

/// What the entries `reader` may read name, by name, as the query filters them: their targets,
/// or their projects or environments.
pub async fn targets(
    db: &SqlitePool,
    organization_id: Uuid,
    reader: Permission,
    query: &TargetsQuery,
) -> ApiResult<Vec<EventTarget>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        #[sqlx(try_from = "Hyphenated")]
        id: Uuid,
        name: String,
    }
    let events = query.events();
    let window = events.window().map_err(ApiError::invalid)?;
    let (id, name) = match query.target_level_to_fetch {
        Some(TargetLevel::Project) => ("project_id", "project_name"),
        Some(TargetLevel::Environment) => ("environment_id", "environment_name"),
        _ => ("target_id", "target_name"),
    };
    let mut builder = QueryBuilder::new(format!(
        "SELECT {id} AS id, MAX({name}) AS name FROM audit_events"
    ));
    filtered(&mut builder, organization_id, reader, &events, &window);
    builder
        .push(format!(
            " AND {id} IS NOT NULL AND {id} != '' GROUP BY {id} ORDER BY name LIMIT "
        ))
        .push_bind(TARGETS_MAX);
    let rows: Vec<Row> = builder.build_query_as().fetch_all(db).await?;
    Ok(rows
        .into_iter()
        .map(|row| EventTarget {
            id: row.id,
            name: row.name,
        })
        .collect())
}

/// A page of the organization's changes that `reader` may read, newest first, with links to the
/// pages around it.
pub async fn page(
    db: &SqlitePool,
    organization_id: Uuid,
    reader: Permission,
    base_path: &str,
    query: &EventQuery,
) -> ApiResult<OrganizationEventList> {
    let window = query.window().map_err(ApiError::invalid)?;
    let mut builder = QueryBuilder::new("SELECT * FROM audit_events");
    filtered(&mut builder, organization_id, reader, query, &window);
    let newer_first = window.after_nanos.is_none();
    if let Some(before) = window.before_nanos {
        builder.push(" AND at_nanos < ").push_bind(before);
    }
    if let Some(after) = window.after_nanos {
        builder.push(" AND at_nanos > ").push_bind(after);
    }
    builder
        .push(if newer_first {
            " ORDER BY at_nanos DESC"
        } else {
            " ORDER BY at_nanos ASC"
        })
        .push(" LIMIT ")
        .push_bind(window.page_size + 1);
    let mut rows: Vec<EventRow> = builder.build_query_as().fetch_all(db).await?;
    let more = rows.len() as i64 > window.page_size;
    rows.truncate(window.page_size as usize);
    if !newer_first {
        rows.reverse();
    }
    let (newest, oldest) = (
        rows.first().map(|row| row.at_nanos),
        rows.last().map(|row| row.at_nanos),
    );
    // Past the page's ends, in the direction it did not read, whether anything is left.
    let beyond = |at: Option<i64>, older: bool| {
        let mut builder = QueryBuilder::new("SELECT EXISTS (SELECT 1 FROM audit_events");
        filtered(&mut builder, organization_id, reader, query, &window);
        if let Some(at) = at {
            builder
                .push(if older {
                    " AND at_nanos < "
                } else {
                    " AND at_nanos > "
                })
                .push_bind(at);
        }
        builder.push(")");
        builder
    };
    let has_older = if newer_first {
        more
    } else {
        let mut exists = beyond(oldest, true);
        oldest.is_some() && exists.build_query_scalar::<bool>().fetch_one(db).await?
    };
    let has_newer = if newer_first {
        let mut exists = beyond(newest, false);
        newest.is_some() && exists.build_query_scalar::<bool>().fetch_one(db).await?
    } else {
        more
    };
    let link = |continue_token: Option<i64>, step_back_token: Option<i64>| {
        let linked = EventQuery {
            continue_token: continue_token.map(|at| at.to_string()),
            step_back_token: step_back_token.map(|at| at.to_string()),
            ..query.clone()
        };
        linked.on(base_path)
    };
    Ok(OrganizationEventList {
        links: EventLinks {
            next: has_older.then(|| link(oldest, None)),
            previous: has_newer.then(|| link(None, newest)),
        },
        organization_max_limit_reached: false,
        events: rows
            .into_iter()
            .map(EventRow::event)
            .collect::<ApiResult<_>>()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_too_large_for_the_log_keeps_its_counts_and_keys() {
        let import = serde_json::json!({
            "total_variables_to_import": 900,
            "successful_imported_variables": (0..900)
                .map(|n| serde_json::json!({"name": format!("KEY_{n}"), "value": "v".repeat(900), "scope": "APPLICATION"}))
                .collect::<Vec<_>>(),
        });
        let kept = abridged(import);
        let text = kept.to_string();
        assert!(text.len() <= ENTRY_MAX_BYTES, "{} bytes", text.len());
        assert_eq!(kept["total_variables_to_import"], 900);
        assert!(text.contains("KEY_899"), "every key is kept");
        assert!(!text.contains("vvvv"), "no value is kept");
        assert!(kept["abridged"].is_string());

        let small = serde_json::json!({"name": "web", "value": "kept"});
        assert_eq!(abridged(small.clone()), small);
    }

    #[test]
    fn a_change_too_large_without_its_values_keeps_its_first_items() {
        let list = serde_json::json!({
            "names": (0..20_000).map(|n| format!("NAME_NUMBER_{n}")).collect::<Vec<_>>(),
        });
        let kept = abridged(list);
        assert!(kept.to_string().len() <= ENTRY_MAX_BYTES);
        assert_eq!(kept["names"][0], "NAME_NUMBER_0");
        assert_eq!(kept["names"][ITEMS_KEPT], "(19900 more left out)");
    }
}
