//! People signed in through the identity provider, as stored, and their memberships: the member
//! each person is in each organization they belong to, with its role.

use chrono::{DateTime, Utc};
use platform_api::RolePermission;
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::ApiResult;
use crate::oidc::Person;

/// A person as stored.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PersonRow {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub subject: String,
    pub email: Option<String>,
    pub name: Option<String>,
    pub communication_email: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
}

const PERSON: &str =
    "SELECT id, subject, email, name, communication_email, created_at, updated_at FROM people";

/// The person a token names, as stored: made at their first sign-in, their e-mail address and
/// name kept as their last token says them.
pub async fn signed_in(conn: &mut SqliteConnection, person: &Person) -> ApiResult<PersonRow> {
    let now = Utc::now();
    sqlx::query(
        "INSERT INTO people (id, subject, email, name, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (subject) DO UPDATE SET email = excluded.email, name = excluded.name,
             updated_at = ?5
         WHERE people.email IS NOT excluded.email OR people.name IS NOT excluded.name",
    )
    .bind(Uuid::new_v4().hyphenated())
    .bind(&person.subject)
    .bind(&person.email)
    .bind(&person.name)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(sqlx::query_as(&format!("{PERSON} WHERE subject = ?"))
        .bind(&person.subject)
        .fetch_one(conn)
        .await?)
}

/// The person a token's subject names, if they signed in before.
pub async fn by_subject<'e>(
    db: impl SqliteExecutor<'e>,
    subject: &str,
) -> sqlx::Result<Option<PersonRow>> {
    sqlx::query_as(&format!("{PERSON} WHERE subject = ?"))
        .bind(subject)
        .fetch_optional(db)
        .await
}

/// The person with this id.
pub async fn find<'e>(db: impl SqliteExecutor<'e>, id: Uuid) -> sqlx::Result<Option<PersonRow>> {
    sqlx::query_as(&format!("{PERSON} WHERE id = ?"))
        .bind(id.hyphenated())
        .fetch_optional(db)
        .await
}

/// A person's member in one organization, with its role.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Membership {
    #[sqlx(try_from = "Hyphenated")]
    pub organization_id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    pub member_id: Uuid,
    pub role_name: String,
    pub permission: RolePermission,
}

const MEMBERSHIP: &str =
    "SELECT m.organization_id, m.id AS member_id, r.name AS role_name, r.permission
     FROM members m JOIN roles r ON r.id = m.role_id";

/// The person's membership in the organization, if they belong to it.
pub async fn membership<'e>(
    db: impl SqliteExecutor<'e>,
    person_id: Uuid,
    organization_id: Uuid,
) -> sqlx::Result<Option<Membership>> {
    sqlx::query_as(&format!(
        "{MEMBERSHIP} WHERE m.person_id = ? AND m.organization_id = ?"
    ))
    .bind(person_id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_optional(db)
    .await
}

/// Every membership of the person, the oldest first (the first is where a request that names no
/// organization goes).
pub async fn memberships<'e>(
    db: impl SqliteExecutor<'e>,
    person_id: Uuid,
) -> sqlx::Result<Vec<Membership>> {
    sqlx::query_as(&format!(
        "{MEMBERSHIP} WHERE m.person_id = ? ORDER BY m.created_at, m.organization_id"
    ))
    .bind(person_id.hyphenated())
    .fetch_all(db)
    .await
}

/// The organization that owns the record with this id (a project, an environment, a service, an
/// organization's resource, a variable, an alert rule, a deployment stage or request), if any.
pub async fn owner_of<'e>(db: impl SqliteExecutor<'e>, id: Uuid) -> sqlx::Result<Option<Uuid>> {
    let owner: Option<Hyphenated> = sqlx::query_scalar(
        "SELECT organization_id FROM projects WHERE id = ?1
         UNION ALL SELECT organization_id FROM environments WHERE id = ?1
         UNION ALL SELECT organization_id FROM services WHERE id = ?1
         UNION ALL SELECT organization_id FROM organization_resources WHERE id = ?1
         UNION ALL SELECT organization_id FROM variables WHERE id = ?1
         UNION ALL SELECT organization_id FROM alert_rules WHERE id = ?1
         UNION ALL SELECT e.organization_id FROM deployment_stages st
             JOIN environments e ON e.id = st.environment_id WHERE st.id = ?1
         UNION ALL SELECT s.organization_id FROM deployments d
             JOIN services s ON s.id = d.service_id WHERE d.id = ?1
         LIMIT 1",
    )
    .bind(id.hyphenated())
    .fetch_optional(db)
    .await?;
    Ok(owner.map(Hyphenated::into_uuid))
}
