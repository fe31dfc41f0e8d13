//! Variables and secrets as stored: one row each, defined on a project, an environment or a
//! service (`parent_id`), a secret's value sealed.

use chrono::{DateTime, Utc};
use platform_api::{VariableScope, VariableType};
use sqlx::sqlite::SqliteArguments;
use sqlx::{Arguments, SqliteConnection, SqlitePool};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::db;
use crate::error::{ApiError, ApiResult, UniqueViolation};
use crate::seal::Sealer;

/// A stored variable, as `COLUMNS` reads it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Stored {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub scope: VariableScope,
    #[sqlx(try_from = "Hyphenated")]
    pub parent_id: Uuid,
    pub key: String,
    pub value: Option<String>,
    pub has_secret_value: bool,
    pub is_secret: bool,
    pub variable_type: VariableType,
    pub mount_path: Option<String>,
    pub description: Option<String>,
    pub enable_interpolation_in_file: bool,
    #[sqlx(try_from = "db::MaybeId")]
    pub target_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
}

pub const COLUMNS: &str = "id, scope, parent_id, key, value,
    secret_value IS NOT NULL AS has_secret_value, is_secret, variable_type, mount_path,
    description, enable_interpolation_in_file, target_id, created_at, updated_at";

/// The organization's variable with this id, as `conn` sees it.
pub async fn find(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<Option<Stored>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM variables WHERE id = ? AND organization_id = ?"
    ))
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_optional(conn)
    .await?)
}

/// The variable with this id, which a stored variable names (its alias or override target).
pub async fn target(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<Stored> {
    Ok(
        sqlx::query_as(&format!("SELECT {COLUMNS} FROM variables WHERE id = ?"))
            .bind(id.hyphenated())
            .fetch_one(conn)
            .await?,
    )
}

/// The variables and secrets defined on the parent `parent_id`.
pub async fn defined_on(conn: &mut SqliteConnection, parent_id: Uuid) -> ApiResult<Vec<Stored>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM variables WHERE parent_id = ? ORDER BY key"
    ))
    .bind(parent_id.hyphenated())
    .fetch_all(conn)
    .await?)
}

/// How many variables and secrets the parent `parent_id` defines.
pub async fn count_on(conn: &mut SqliteConnection, parent_id: Uuid) -> ApiResult<i64> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM variables WHERE parent_id = ?")
            .bind(parent_id.hyphenated())
            .fetch_one(conn)
            .await?,
    )
}

/// What an update of one variable writes; a secret value left out (`None`) is kept.
pub struct Changed<'a> {
    pub key: &'a str,
    pub value: Option<String>,
    pub sealed_secret_value: Option<String>,
    pub mount_path: Option<&'a str>,
    pub description: Option<&'a str>,
    pub enable_interpolation_in_file: bool,
}

pub async fn update(conn: &mut SqliteConnection, id: Uuid, changed: Changed<'_>) -> ApiResult<()> {
    sqlx::query(
        "UPDATE variables SET key = ?, value = ?, secret_value = COALESCE(?, secret_value),
             mount_path = ?, description = ?, enable_interpolation_in_file = ?, updated_at = ?
         WHERE id = ?",
    )
    .bind(changed.key)
    .bind(changed.value)
    .bind(changed.sealed_secret_value)
    .bind(changed.mount_path)
    .bind(changed.description)
    .bind(changed.enable_interpolation_in_file)
    .bind(Utc::now())
    .bind(id.hyphenated())
    .execute(conn)
    .await
    .on_unique_violation("key", "variable")?;
    Ok(())
}

pub async fn delete(conn: &mut SqliteConnection, id: Uuid) -> ApiResult<()> {
    sqlx::query("DELETE FROM variables WHERE id = ?")
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}

/// A variable to write.
pub struct NewVariable {
    pub key: String,
    pub value: Option<String>,
    pub secret_value: Option<String>,
    pub is_secret: bool,
    pub variable_type: VariableType,
    pub mount_path: Option<String>,
    pub description: Option<String>,
    pub enable_interpolation_in_file: bool,
    pub target_id: Option<Uuid>,
}

/// Writes a new variable defined at `(scope, parent id)` on `db` (a transaction's connection, or
/// a pool's), its secret value sealed; its id.
pub async fn insert(
    db: &mut SqliteConnection,
    sealer: &Sealer,
    organization_id: Uuid,
    (scope, parent_id): (VariableScope, Uuid),
    new: &NewVariable,
) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query(
        "INSERT INTO variables (id, organization_id, scope, parent_id, key, value, secret_value,
             is_secret, variable_type, mount_path, description, enable_interpolation_in_file,
             target_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(scope)
    .bind(parent_id.hyphenated())
    .bind(&new.key)
    .bind(&new.value)
    .bind(new.secret_value.as_deref().map(|value| sealer.seal(value)))
    .bind(new.is_secret)
    .bind(new.variable_type)
    .bind(&new.mount_path)
    .bind(&new.description)
    .bind(new.enable_interpolation_in_file)
    .bind(new.target_id.map(|id| id.hyphenated()))
    .bind(Utc::now())
    .execute(&mut *db)
    .await?;
    Ok(id)
}

/// Makes a plain variable a secret holding `sealed` (its value), and its aliases aliases of a
/// secret; the parents whose variables showed the value (the variable's aliases' and overrides').
pub async fn make_secret(
    conn: &mut SqliteConnection,
    id: Uuid,
    sealed: String,
) -> ApiResult<Vec<Uuid>> {
    sqlx::query(
        "UPDATE variables SET is_secret = 1, secret_value = ?, value = NULL, updated_at = ?
         WHERE id = ?",
    )
    .bind(sealed)
    .bind(Utc::now())
    .bind(id.hyphenated())
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE variables SET is_secret = 1 WHERE target_id = ? AND variable_type = ?")
        .bind(id.hyphenated())
        .bind(VariableType::Alias)
        .execute(&mut *conn)
        .await?;
    let parents: Vec<Hyphenated> =
        sqlx::query_scalar("SELECT DISTINCT parent_id FROM variables WHERE target_id = ?")
            .bind(id.hyphenated())
            .fetch_all(conn)
            .await?;
    Ok(parents.into_iter().map(Hyphenated::into_uuid).collect())
}

/// Sets a variable's plain value and secret value (sealed): an import overwriting it, a bulk
/// change of a plain one's value.
pub async fn set_values(
    conn: &mut SqliteConnection,
    id: Uuid,
    value: Option<&str>,
    sealed_secret_value: Option<String>,
) -> ApiResult<()> {
    sqlx::query("UPDATE variables SET value = ?, secret_value = ?, updated_at = ? WHERE id = ?")
        .bind(value)
        .bind(sealed_secret_value)
        .bind(Utc::now())
        .bind(id.hyphenated())
        .execute(conn)
        .await?;
    Ok(())
}

/// The variable of this key defined at `(scope, parent id)`, if any.
pub async fn defined_as(
    conn: &mut SqliteConnection,
    (scope, parent_id): (VariableScope, Uuid),
    key: &str,
) -> ApiResult<Option<Stored>> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM variables WHERE scope = ? AND parent_id = ? AND key = ?"
    ))
    .bind(scope)
    .bind(parent_id.hyphenated())
    .bind(key)
    .fetch_optional(conn)
    .await?)
}

/// The variables a parent sees: those defined on its chain of parents (`chain`), only its
/// secrets or only its plain variables (`secret`) when asked, an override hiding the variable
/// it overrides.
pub struct Seen {
    pub chain: Vec<Uuid>,
    pub secret: Option<bool>,
}

/// A stored variable as seen, with what it aliases or overrides.
#[derive(sqlx::FromRow)]
pub struct Listed {
    #[sqlx(flatten)]
    pub row: Stored,
    pub target_key: Option<String>,
    pub target_value: Option<String>,
    pub target_mount_path: Option<String>,
    pub target_scope: Option<VariableScope>,
    pub target_variable_type: Option<VariableType>,
}

impl Seen {
    /// `FROM … WHERE …` of the variables seen; `arguments` binds its parameters.
    fn clause(&self) -> String {
        let placeholders = vec!["?"; self.chain.len()].join(", ");
        format!(
            "FROM variables WHERE parent_id IN ({placeholders}) AND (? IS NULL OR is_secret = ?)
             AND id NOT IN (SELECT target_id FROM variables WHERE parent_id IN ({placeholders})
                            AND variable_type = ? AND target_id IS NOT NULL)"
        )
    }

    /// The parameters of `from_where`, then `more`'s.
    fn arguments<'q>(&self, more: &[i64]) -> ApiResult<SqliteArguments<'q>> {
        let mut arguments = SqliteArguments::default();
        for id in &self.chain {
            arguments.add(id.hyphenated()).map_err(ApiError::internal)?;
        }
        arguments.add(self.secret).map_err(ApiError::internal)?;
        arguments.add(self.secret).map_err(ApiError::internal)?;
        for id in &self.chain {
            arguments.add(id.hyphenated()).map_err(ApiError::internal)?;
        }
        arguments
            .add(VariableType::Override)
            .map_err(ApiError::internal)?;
        for value in more {
            arguments.add(*value).map_err(ApiError::internal)?;
        }
        Ok(arguments)
    }

    /// What the variables seen weigh in values: their keys and values, and the values of what
    /// they alias or override (shown beside their own).
    pub async fn weight(&self, db: &SqlitePool) -> ApiResult<i64> {
        let sql = format!(
            "SELECT COALESCE(SUM(LENGTH(COALESCE(v.value, '')) + LENGTH(v.key)
                                 + COALESCE(LENGTH(t.value), 0)), 0)
             FROM variables v LEFT JOIN variables t ON t.id = v.target_id
             WHERE v.id IN (SELECT id {})",
            self.clause()
        );
        Ok(sqlx::query_scalar_with(&sql, self.arguments(&[])?)
            .fetch_one(db)
            .await?)
    }

    /// How many variables are seen.
    pub async fn count(&self, db: &SqlitePool) -> ApiResult<i64> {
        let sql = format!("SELECT COUNT(*) {}", self.clause());
        Ok(sqlx::query_scalar_with(&sql, self.arguments(&[])?)
            .fetch_one(db)
            .await?)
    }

    /// The variables seen by key, `limit` of them (all when negative) after `offset`.
    pub async fn page(&self, db: &SqlitePool, limit: i64, offset: i64) -> ApiResult<Vec<Listed>> {
        let sql = format!(
            "SELECT l.*, t.key AS target_key, t.value AS target_value,
                    t.mount_path AS target_mount_path, t.scope AS target_scope,
                    t.variable_type AS target_variable_type
             FROM (SELECT {COLUMNS} {} ORDER BY key, scope LIMIT ? OFFSET ?) l
             LEFT JOIN variables t ON t.id = l.target_id
             ORDER BY l.key, l.scope",
            self.clause()
        );
        Ok(sqlx::query_as_with(&sql, self.arguments(&[limit, offset])?)
            .fetch_all(db)
            .await?)
    }
}

/// A variable as a service is given it when deployed: an alias under its own key with its
/// variable's value, an override in place of what it overrides.
#[derive(Debug, sqlx::FromRow)]
pub struct Given {
    pub key: String,
    pub scope: VariableScope,
    pub variable_type: VariableType,
    pub is_secret: bool,
    /// A plain variable's value (an alias's is its variable's); never a secret's.
    pub value: Option<String>,
    /// The key an alias stands for.
    pub aliased_key: Option<String>,
}

/// What the service `service_id` is given at its deployment: its own variables, its
/// environment's and its project's, by key, each key once (the deepest definition wins), an
/// overridden variable left out.
pub async fn given_to_service(db: &SqlitePool, service_id: Uuid) -> ApiResult<Vec<Given>> {
    let defined: Vec<Given> = sqlx::query_as(
        "WITH chain(id) AS (
             SELECT s.id FROM services s WHERE s.id = ?1
             UNION ALL SELECT s.environment_id FROM services s WHERE s.id = ?1
             UNION ALL SELECT e.project_id FROM services s
                 JOIN environments e ON e.id = s.environment_id WHERE s.id = ?1)
         SELECT v.key, v.scope, v.variable_type, v.is_secret,
                CASE WHEN v.is_secret THEN NULL
                     WHEN v.variable_type = ?2 THEN t.value ELSE v.value END AS value,
                CASE WHEN v.variable_type = ?2 THEN t.key END AS aliased_key
         FROM variables v LEFT JOIN variables t ON t.id = v.target_id
         WHERE v.parent_id IN (SELECT id FROM chain)
           AND v.id NOT IN (SELECT o.target_id FROM variables o
                            WHERE o.parent_id IN (SELECT id FROM chain)
                              AND o.variable_type = ?3 AND o.target_id IS NOT NULL)
         ORDER BY v.key",
    )
    .bind(service_id.hyphenated())
    .bind(VariableType::Alias)
    .bind(VariableType::Override)
    .fetch_all(db)
    .await?;
    let mut given: Vec<Given> = Vec::with_capacity(defined.len());
    for variable in defined {
        match given.last_mut() {
            Some(last) if last.key == variable.key => {
                if variable.scope.depth() > last.scope.depth() {
                    *last = variable;
                }
            }
            _ => given.push(variable),
        }
    }
    Ok(given)
}

/// A variable as an export writes it: never a secret's value.
#[derive(Debug, sqlx::FromRow)]
pub struct Exported {
    #[sqlx(try_from = "Hyphenated")]
    pub parent_id: Uuid,
    pub key: String,
    pub is_secret: bool,
    pub variable_type: VariableType,
    /// A plain variable's own value (an alias has none).
    pub value: Option<String>,
    pub mount_path: Option<String>,
    /// The key an alias or override names.
    pub target_key: Option<String>,
}

/// The variables defined on each of `parents`, by key.
pub async fn exported(db: &SqlitePool, parents: &[Uuid]) -> ApiResult<Vec<Exported>> {
    let parents: Vec<String> = parents
        .iter()
        .map(|id| id.hyphenated().to_string())
        .collect();
    Ok(sqlx::query_as(
        "SELECT v.parent_id, v.key, v.is_secret, v.variable_type,
                CASE WHEN v.is_secret THEN NULL ELSE v.value END AS value,
                v.mount_path, t.key AS target_key
         FROM variables v LEFT JOIN variables t ON t.id = v.target_id
         WHERE v.parent_id IN (SELECT value FROM json_each(?))
         ORDER BY v.key",
    )
    .bind(serde_json::to_string(&parents).map_err(ApiError::internal)?)
    .fetch_all(db)
    .await?)
}
