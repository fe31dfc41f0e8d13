//! Services as stored: one row per service of any kind, its record (JSON, as callers see it) and
//! its sealed secrets apart.

use chrono::Utc;
use platform_api::{ImagePaths, ServiceType};
use sqlx::{SqliteConnection, SqlitePool};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult, UniqueViolation};
use crate::seal::Secrets;
use crate::store::organization_resources::{Kind, GIT_TOKENS};

/// A record of the organization a service's record names: at `at` (a JSON path such as
/// `$.registry`, holding `{id}` as stored), of `kind`.
#[derive(Clone, Copy)]
pub struct Names {
    pub at: &'static str,
    pub kind: Kind,
}

/// A service's stored spec (`base`, an expression over `s.spec`) with the groups it is attached
/// to as they are now, in the order attached (a group deleted since is gone); specs attached to
/// no group (most, and every kind without groups) as `base`, without rewriting their JSON.
fn grouped(base: &str) -> String {
    format!(
        "CASE WHEN COALESCE(json_array_length(s.spec, '$.annotations_groups'), 0)
        + COALESCE(json_array_length(s.spec, '$.labels_groups'), 0) = 0 THEN {base}
    ELSE json_set({base},
        '$.annotations_groups', json((SELECT json_group_array(json(g.record) ORDER BY j.key)
            FROM json_each(s.spec, '$.annotations_groups') j JOIN organization_resources g
            ON g.kind = 'annotations_group' AND g.organization_id = s.organization_id
            AND g.id = json_extract(j.value, '$.id'))),
        '$.labels_groups', json((SELECT json_group_array(json(g.record) ORDER BY j.key)
            FROM json_each(s.spec, '$.labels_groups') j JOIN organization_resources g
            ON g.kind = 'labels_group' AND g.organization_id = s.organization_id
            AND g.id = json_extract(j.value, '$.id'))))
    END"
    )
}

/// The spec of a service of `kind` with the name of the git token its repository is read with
/// as that token is named now (joined as `t` by `with_git_token`).
fn with_git_token_name(kind: ServiceType) -> String {
    match kind.git_repository_path() {
        Some(path) => format!(
            "CASE WHEN t.id IS NULL THEN s.spec
             ELSE json_set(s.spec, '{path}.git_token_name', t.name) END"
        ),
        None => "s.spec".to_string(),
    }
}

/// The git token a service of `kind` names, as `t`; nothing for the kinds never built from git.
fn with_git_token(kind: ServiceType) -> String {
    match kind.git_repository_path() {
        Some(path) => format!(
            "LEFT JOIN organization_resources t ON t.kind = '{}'
             AND t.organization_id = s.organization_id
             AND t.id = json_extract(s.spec, '{path}.git_token_id')",
            GIT_TOKENS.stored_as
        ),
        None => String::new(),
    }
}

/// A service's record as read: `grouped`, with the git token's name, and with the organization's
/// record it names (at the path bound first, as in `ServiceResource::NAMES`) as that record is
/// now.
fn spec(kind: ServiceType) -> String {
    let grouped = grouped(&with_git_token_name(kind));
    format!(
        "CASE WHEN r.id IS NULL THEN {grouped} ELSE json_set({grouped}, ?, json_object(
            'id', r.id, 'name', r.name, 'url', json_extract(r.record, '$.url'),
            'kind', json_extract(r.record, '$.kind'))) END"
    )
}

/// The record of `spec()` (of the kind bound second), joined on the id at the path bound third;
/// then the git token of `kind`.
fn joined(kind: ServiceType) -> String {
    format!(
        "LEFT JOIN organization_resources r
            ON r.kind = ? AND r.id = json_extract(s.spec, ? || '.id')
         {}",
        with_git_token(kind)
    )
}

/// A service's record (JSON) as read, with its id and name.
#[derive(sqlx::FromRow)]
pub struct Named {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub name: String,
    pub record: String,
}

/// The environment's services of `kind` as read, by name.
pub async fn in_environment(
    db: &SqlitePool,
    environment_id: Uuid,
    kind: ServiceType,
    names: Option<Names>,
) -> ApiResult<Vec<Named>> {
    Ok(sqlx::query_as(&format!(
        "SELECT s.id, s.name, {} AS record FROM services s {}
         WHERE s.environment_id = ? AND s.kind = ? ORDER BY s.name",
        spec(kind),
        joined(kind)
    ))
    .bind(names.map(|names| names.at))
    .bind(names.map(|names| names.kind.stored_as))
    .bind(names.map(|names| names.at))
    .bind(environment_id.hyphenated())
    .bind(kind)
    .fetch_all(db)
    .await?)
}

/// A service's record (JSON) as read, and its environment.
#[derive(sqlx::FromRow)]
pub struct Found {
    pub record: String,
    #[sqlx(try_from = "Hyphenated")]
    pub environment_id: Uuid,
}

/// The organization's service of `kind` with this id, as `conn` sees it.
pub async fn find(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    kind: ServiceType,
    names: Option<Names>,
    id: Uuid,
) -> ApiResult<Option<Found>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {} AS record, s.environment_id FROM services s {}
         WHERE s.id = ? AND s.organization_id = ? AND s.kind = ?",
        spec(kind),
        joined(kind)
    ))
    .bind(names.map(|names| names.at))
    .bind(names.map(|names| names.kind.stored_as))
    .bind(names.map(|names| names.at))
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(kind)
    .fetch_optional(conn)
    .await?)
}

/// A service to store, its record and secrets already serialized (the secrets sealed).
pub struct Row<'a> {
    pub id: Uuid,
    pub name: &'a str,
    pub record: String,
    pub secrets: &'a Secrets,
}

/// Stores a new service of `kind` in the environment; 409 naming `name` when the environment
/// has a service of that name.
pub async fn insert(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    environment_id: Uuid,
    kind: ServiceType,
    row: Row<'_>,
) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO services (id, organization_id, environment_id, kind, name, spec, secrets, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(row.id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(environment_id.hyphenated())
    .bind(kind)
    .bind(row.name)
    .bind(row.record)
    .bind(serde_json::to_string(row.secrets).map_err(ApiError::internal)?)
    .bind(Utc::now())
    .execute(conn)
    .await
    .on_unique_violation("name", "service")?;
    Ok(())
}

/// Replaces a service's name, record and secrets.
pub async fn update(conn: &mut SqliteConnection, row: Row<'_>) -> ApiResult<()> {
    sqlx::query("UPDATE services SET name = ?, spec = ?, secrets = ?, updated_at = ? WHERE id = ?")
        .bind(row.name)
        .bind(row.record)
        .bind(serde_json::to_string(row.secrets).map_err(ApiError::internal)?)
        .bind(Utc::now())
        .bind(row.id.hyphenated())
        .execute(conn)
        .await
        .on_unique_violation("name", "service")?;
    Ok(())
}

/// A service's sealed secrets by name.
pub async fn secrets(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<Secrets> {
    let stored: String = sqlx::query_scalar("SELECT secrets FROM services WHERE id = ?")
        .bind(id.hyphenated())
        .fetch_one(conn)
        .await?;
    serde_json::from_str(&stored).map_err(ApiError::internal)
}

/// Sets the value at `path` of a service's record (a deploy pinning an image tag or a chart
/// version).
pub async fn set_in_record(
    conn: &mut SqliteConnection,
    id: Uuid,
    path: &str,
    value: &str,
) -> ApiResult<()> {
    sqlx::query(&format!(
        "UPDATE services SET spec = json_set(spec, '{path}', ?) WHERE id = ?"
    ))
    .bind(value)
    .bind(id.hyphenated())
    .execute(conn)
    .await?;
    Ok(())
}

/// Where a service is: its environment and project, and its name.
#[derive(sqlx::FromRow)]
pub struct Placed {
    #[sqlx(try_from = "Hyphenated")]
    pub environment_id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    pub project_id: Uuid,
    pub name: String,
}

/// Where the organization's service of `kind` with this id is.
pub async fn placed(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    kind: ServiceType,
    id: Uuid,
) -> ApiResult<Option<Placed>> {
    Ok(sqlx::query_as(
        "SELECT s.environment_id, e.project_id, s.name FROM services s
         JOIN environments e ON e.id = s.environment_id
         WHERE s.id = ? AND s.organization_id = ? AND s.kind = ?",
    )
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(kind)
    .fetch_optional(conn)
    .await?)
}

/// A service of an environment, of any kind, as stored.
#[derive(sqlx::FromRow)]
pub struct AnyKind {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub kind: ServiceType,
    pub name: String,
    pub spec: String,
    pub created_at: chrono::DateTime<Utc>,
}

/// The environment's services of every kind, by name.
pub async fn of_every_kind(db: &SqlitePool, environment_id: Uuid) -> ApiResult<Vec<AnyKind>> {
    Ok(sqlx::query_as(
        "SELECT id, kind, name, spec, created_at FROM services WHERE environment_id = ? ORDER BY name",
    )
    .bind(environment_id.hyphenated())
    .fetch_all(db)
    .await?)
}

/// Whether the organization has a service with this id.
pub async fn in_organization<'e>(
    db: impl sqlx::SqliteExecutor<'e>,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<bool> {
    Ok(sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM services WHERE id = ? AND organization_id = ?)",
    )
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_one(db)
    .await?)
}

/// A service of any kind with this id, wherever it is (a public address names it by id alone).
pub async fn any_kind(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<Option<AnyKind>> {
    Ok(
        sqlx::query_as("SELECT id, kind, name, spec, created_at FROM services WHERE id = ?")
            .bind(id.hyphenated())
            .fetch_optional(conn)
            .await?,
    )
}

/// Replaces a service's sealed secrets, its record left as it is.
pub async fn set_secrets(
    conn: &mut SqliteConnection,
    id: Uuid,
    secrets: &Secrets,
) -> ApiResult<()> {
    sqlx::query("UPDATE services SET secrets = ? WHERE id = ?")
        .bind(serde_json::to_string(secrets).map_err(ApiError::internal)?)
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}

/// `columns` of the services `condition` keeps, with their repository's `url`, `branch` and
/// `deployed_commit_id`, read from where each kind holds them (none for the kinds not built from
/// git).
pub fn with_repository(columns: &str, condition: &str) -> String {
    let at = |field: &str| {
        let cases: String = ServiceType::ALL
            .iter()
            .filter_map(|kind| {
                let path = kind.git_repository_path()?;
                Some(format!(
                    " WHEN '{}' THEN json_extract(spec, '{path}.{field}')",
                    kind.as_str()
                ))
            })
            .collect();
        format!("CASE kind{cases} END AS {field}")
    };
    format!(
        "SELECT {columns}, {}, {}, {} FROM services WHERE {condition}",
        at("url"),
        at("branch"),
        at("deployed_commit_id")
    )
}

/// Whether a container of the organization runs, or once deployed, `image_name:tag` from the
/// registry `registry_id`: the images this server knows a registry holds.
pub async fn image_used(
    db: &SqlitePool,
    organization_id: Uuid,
    registry_id: Uuid,
    image_name: &str,
    tag: &str,
) -> ApiResult<bool> {
    Ok(sqlx::query_scalar(
        "SELECT EXISTS (
             SELECT 1 FROM services s
             WHERE s.organization_id = ? AND s.kind = ?
               AND json_extract(s.spec, '$.registry.id') = ?
               AND json_extract(s.spec, '$.image_name') = ?
               AND (json_extract(s.spec, '$.tag') = ?
                    OR EXISTS (SELECT 1 FROM deployments d WHERE d.service_id = s.id
                               AND json_extract(d.spec, '$.tag') = ?)))",
    )
    .bind(organization_id.hyphenated())
    .bind(ServiceType::Container)
    .bind(registry_id.hyphenated().to_string())
    .bind(image_name)
    .bind(tag)
    .bind(tag)
    .fetch_one(db)
    .await?)
}

/// The images of the registry `registry_id` the organization's containers run or ran, each
/// with its tags, by name: those named `exact`, or those whose name holds `part`.
pub async fn images_used(
    db: &SqlitePool,
    organization_id: Uuid,
    registry_id: Uuid,
    exact: Option<&str>,
    part: Option<&str>,
) -> ApiResult<Vec<(String, Vec<String>)>> {
    let used: Vec<NamedVersion> = sqlx::query_as(
        "WITH images AS (
             SELECT s.id, json_extract(s.spec, '$.image_name') AS image_name,
                    json_extract(s.spec, '$.tag') AS tag
             FROM services s
             WHERE s.organization_id = ?1 AND s.kind = ?2
               AND json_extract(s.spec, '$.registry.id') = ?3)
         SELECT DISTINCT image_name AS name, tag AS version FROM (
             SELECT image_name, tag FROM images
             UNION
             SELECT i.image_name, json_extract(d.spec, '$.tag') FROM images i
             JOIN deployments d ON d.service_id = i.id)
         WHERE tag IS NOT NULL AND (?4 IS NULL OR image_name = ?4)
           AND (?5 IS NULL OR instr(lower(image_name), lower(?5)) > 0)
         ORDER BY image_name, tag",
    )
    .bind(organization_id.hyphenated())
    .bind(ServiceType::Container)
    .bind(registry_id.hyphenated().to_string())
    .bind(exact)
    .bind(part)
    .fetch_all(db)
    .await?;
    Ok(by_name(used))
}

/// Whether a service of the organization deploys on push, and the git repository it is built
/// from (none for a kind not built from git, or a job or chart from elsewhere); `None` when the
/// organization has no such service.
pub async fn git_source(
    db: &SqlitePool,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<Option<(bool, Option<platform_api::GitRepository>)>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        kind: ServiceType,
        spec: String,
    }
    let row: Option<Row> =
        sqlx::query_as("SELECT kind, spec FROM services WHERE id = ? AND organization_id = ?")
            .bind(id.hyphenated())
            .bind(organization_id.hyphenated())
            .fetch_optional(db)
            .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let spec: serde_json::Value = serde_json::from_str(&row.spec).map_err(ApiError::internal)?;
    let auto_deploy = spec["auto_deploy"].as_bool().unwrap_or(false);
    let repository = row
        .kind
        .git_repository_path()
        .and_then(|path| spec.pointer(&path.trim_start_matches('$').replace('.', "/")))
        .and_then(|repository| serde_json::from_value(repository.clone()).ok());
    Ok(Some((auto_deploy, repository)))
}

/// The charts the organization's helm services install or installed from the helm repository
/// `repository_id`, each with its versions (the one set now and those deployed), by name.
pub async fn charts_used(
    db: &SqlitePool,
    organization_id: Uuid,
    repository_id: Uuid,
) -> ApiResult<Vec<(String, Vec<String>)>> {
    let used: Vec<NamedVersion> = sqlx::query_as(
        "WITH charts AS (
             SELECT s.id, json_extract(s.spec, '$.source.repository.chart_name') AS chart_name,
                    json_extract(s.spec, '$.source.repository.chart_version') AS chart_version
             FROM services s
             WHERE s.organization_id = ?1 AND s.kind = ?2
               AND json_extract(s.spec, '$.source.repository.repository.id') = ?3)
         SELECT DISTINCT chart_name AS name, chart_version AS version FROM (
             SELECT chart_name, chart_version FROM charts
             UNION
             SELECT c.chart_name, json_extract(d.spec, '$.source.repository.chart_version')
             FROM charts c JOIN deployments d ON d.service_id = c.id)
         WHERE chart_name IS NOT NULL AND chart_version IS NOT NULL
         ORDER BY chart_name, chart_version",
    )
    .bind(organization_id.hyphenated())
    .bind(ServiceType::Helm)
    .bind(repository_id.hyphenated().to_string())
    .fetch_all(db)
    .await?;
    Ok(by_name(used))
}

/// An image and a tag, or a chart and a version, the organization's services use.
#[derive(sqlx::FromRow)]
struct NamedVersion {
    name: String,
    version: String,
}

/// Rows ordered by name, as each name with its versions.
fn by_name(rows: Vec<NamedVersion>) -> Vec<(String, Vec<String>)> {
    let mut named: Vec<(String, Vec<String>)> = Vec::new();
    for NamedVersion { name, version } in rows {
        match named.last_mut() {
            Some((last, versions)) if *last == name => versions.push(version),
            _ => named.push((name, vec![version])),
        }
    }
    named
}

/// The organization's services of `kind` with auto-deploy that run `image_name` at another tag
/// than `tag`, by id.
pub async fn running_image_elsewhere<'e>(
    db: impl sqlx::SqliteExecutor<'e>,
    organization_id: Uuid,
    kind: ServiceType,
    image: ImagePaths,
    image_name: &str,
    tag: &str,
) -> ApiResult<Vec<Uuid>> {
    let ids: Vec<Hyphenated> = sqlx::query_scalar(&format!(
        "SELECT id FROM services WHERE organization_id = ? AND kind = ?
             AND json_extract(spec, '$.auto_deploy') = 1
             AND json_extract(spec, '{}') = ? AND coalesce(json_extract(spec, '{}'), '') <> ?
         ORDER BY id",
        image.name, image.tag
    ))
    .bind(organization_id.hyphenated())
    .bind(kind)
    .bind(image_name)
    .bind(tag)
    .fetch_all(db)
    .await?;
    Ok(ids.into_iter().map(Hyphenated::into_uuid).collect())
}

/// The environment's first service of `kind`, by name, that runs `image_name`.
pub async fn first_running_image<'e>(
    db: impl sqlx::SqliteExecutor<'e>,
    environment_id: Uuid,
    kind: ServiceType,
    image: ImagePaths,
    image_name: &str,
) -> ApiResult<Uuid> {
    let id: Hyphenated = sqlx::query_scalar(&format!(
        "SELECT id FROM services WHERE environment_id = ? AND kind = ?
         AND json_extract(spec, '{}') = ? ORDER BY name LIMIT 1",
        image.name
    ))
    .bind(environment_id.hyphenated())
    .bind(kind)
    .bind(image_name)
    .fetch_one(db)
    .await?;
    Ok(id.into_uuid())
}

/// Whether one of the organization's services of `kind` is built from the repository at `url`.
pub async fn built_from<'e>(
    db: impl sqlx::SqliteExecutor<'e>,
    organization_id: Uuid,
    kind: ServiceType,
    url: &str,
) -> ApiResult<bool> {
    let Some(path) = kind.git_repository_path() else {
        return Ok(false);
    };
    let used: Option<i64> = sqlx::query_scalar(&format!(
        "SELECT 1 FROM services
         WHERE organization_id = ? AND kind = ? AND json_extract(spec, '{path}.url') = ?
         LIMIT 1"
    ))
    .bind(organization_id.hyphenated())
    .bind(kind)
    .bind(url)
    .fetch_optional(db)
    .await?;
    Ok(used.is_some())
}

/// The addresses of the repositories the organization's services are built from.
pub async fn repository_urls<'e>(
    db: impl sqlx::SqliteExecutor<'e>,
    organization_id: Uuid,
) -> ApiResult<Vec<String>> {
    let by_kind: Vec<String> = ServiceType::ALL
        .iter()
        .filter_map(|kind| {
            let path = kind.git_repository_path()?;
            Some(format!(
                "SELECT json_extract(spec, '{path}.url') AS url FROM services
                 WHERE organization_id = ?1 AND kind = '{}'",
                kind.as_str()
            ))
        })
        .collect();
    let urls: Vec<Option<String>> = sqlx::query_scalar(&format!(
        "SELECT DISTINCT url FROM ({}) ORDER BY url",
        by_kind.join(" UNION ALL ")
    ))
    .bind(organization_id.hyphenated())
    .fetch_all(db)
    .await?;
    Ok(urls.into_iter().flatten().collect())
}

/// The environment of the organization's service with this id.
pub async fn environment_of<'e>(
    db: impl sqlx::SqliteExecutor<'e>,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<Option<Uuid>> {
    let environment: Option<Hyphenated> = sqlx::query_scalar(
        "SELECT environment_id FROM services WHERE id = ? AND organization_id = ?",
    )
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_optional(db)
    .await?;
    Ok(environment.map(Hyphenated::into_uuid))
}
