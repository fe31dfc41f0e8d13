//! An organization's members, its invitations and the sessions accepted invitations signed
//! members in with, as stored.

use chrono::{DateTime, Utc};
use platform_api::{Member, MemberRole, RolePermission};
use sqlx::{SqliteConnection, SqliteExecutor};
use uuid::fmt::Hyphenated;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult, UniqueViolation};

/// A member with their role.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MemberRow {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub email: String,
    #[sqlx(try_from = "Hyphenated")]
    pub role_id: Uuid,
    pub role_name: String,
    pub permission: RolePermission,
    pub created_at: DateTime<Utc>,
    pub updated_at: Option<DateTime<Utc>>,
    pub last_activity_at: Option<DateTime<Utc>>,
}

impl From<MemberRow> for Member {
    fn from(row: MemberRow) -> Self {
        let name = row.email.split('@').next().map(str::to_string);
        Member {
            id: row.id,
            created_at: row.created_at,
            updated_at: row.updated_at,
            role: Some(MemberRole::of(row.permission)),
            name: name.clone(),
            nickname: name,
            email: row.email,
            last_activity_at: row.last_activity_at,
            role_id: Some(row.role_id),
            role_name: Some(row.role_name),
        }
    }
}

const MEMBER: &str = "SELECT m.id, m.email, m.role_id, r.name AS role_name, r.permission,
        m.created_at, m.updated_at, m.last_activity_at
    FROM members m JOIN roles r ON r.id = m.role_id";

pub async fn members<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
) -> sqlx::Result<Vec<MemberRow>> {
    sqlx::query_as(&format!(
        "{MEMBER} WHERE m.organization_id = ? ORDER BY m.email"
    ))
    .bind(organization_id.hyphenated())
    .fetch_all(db)
    .await
}

/// The organization's member with this id, or 404.
pub async fn member<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<MemberRow> {
    sqlx::query_as(&format!(
        "{MEMBER} WHERE m.id = ? AND m.organization_id = ?"
    ))
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_optional(db)
    .await?
    .ok_or_else(|| ApiError::not_found("member"))
}

/// Who can manage an organization: its members and its unexpired API tokens whose role grants
/// ADMIN.
#[derive(Clone, Copy, Debug, PartialEq, sqlx::FromRow)]
pub struct Admins {
    pub members: i64,
    pub tokens: i64,
}

impl Admins {
    /// The organization's admins now.
    pub async fn of(conn: &mut SqliteConnection, organization_id: Uuid) -> sqlx::Result<Self> {
        sqlx::query_as(
            "SELECT
                 (SELECT COUNT(*) FROM members m JOIN roles r ON r.id = m.role_id
                  WHERE m.organization_id = ?1 AND r.permission = ?2) AS members,
                 (SELECT COUNT(*) FROM api_tokens t JOIN roles r ON r.id = t.role_id
                  WHERE t.organization_id = ?1 AND r.permission = ?2
                    AND (t.expires_at IS NULL OR t.expires_at > ?3)) AS tokens",
        )
        .bind(organization_id.hyphenated())
        .bind(RolePermission::Admin)
        .bind(chrono::Utc::now())
        .fetch_one(conn)
        .await
    }

    /// 409 when a change made since `self` was counted left the organization without an admin
    /// member, or without an ADMIN token, where it had one: the rule every route that changes
    /// roles, members or tokens ends with, inside its transaction.
    pub async fn kept(self, conn: &mut SqliteConnection, organization_id: Uuid) -> ApiResult<()> {
        let now = Self::of(conn, organization_id).await?;
        if self.members > 0 && now.members == 0 {
            return Err(ApiError::conflict(
                "This would take away the organization's last admin member: make another \
                 member an admin first.",
            ));
        }
        if self.tokens > 0 && now.tokens == 0 {
            return Err(ApiError::conflict(
                "This would take away the organization's last ADMIN token: create another \
                 ADMIN token first, or nobody could manage the organization.",
            ));
        }
        Ok(())
    }
}

/// Whether the organization has a member with this e-mail address.
pub async fn is_member(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    email: &str,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM members WHERE organization_id = ? AND email = ?)",
    )
    .bind(organization_id.hyphenated())
    .bind(email)
    .fetch_one(conn)
    .await
}

pub async fn insert_member(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    (id, email, role_id): (Uuid, &str, Uuid),
) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO members (id, organization_id, email, role_id, created_at) VALUES (?, ?, ?, ?, ?)",
    )
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(email)
    .bind(role_id.hyphenated())
    .bind(Utc::now())
    .execute(conn)
    .await
    .on_unique_violation("email", "member")?;
    Ok(())
}

/// A person's member: made when they make an organization or accept an invitation signed in.
pub async fn insert_person_member(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    (id, email, role_id): (Uuid, &str, Uuid),
    person_id: Uuid,
) -> ApiResult<()> {
    insert_member(conn, organization_id, (id, email, role_id)).await?;
    sqlx::query("UPDATE members SET person_id = ? WHERE id = ?")
        .bind(person_id.hyphenated())
        .bind(id.hyphenated())
        .execute(conn)
        .await
        .on_unique_violation("email", "member")?;
    Ok(())
}

pub async fn set_role(conn: &mut SqliteConnection, id: Uuid, role_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("UPDATE members SET role_id = ?, updated_at = ? WHERE id = ?")
        .bind(role_id.hyphenated())
        .bind(Utc::now())
        .bind(id.hyphenated())
        .execute(conn)
        .await
        .map(drop)
}

/// Removes the member; their sessions go with them.
pub async fn delete_member(conn: &mut SqliteConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM members WHERE id = ?")
        .bind(id.hyphenated())
        .execute(conn)
        .await
        .map(drop)
}

/// An invitation with its role.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct InvitationRow {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub email: String,
    #[sqlx(try_from = "Hyphenated")]
    pub role_id: Uuid,
    pub role_name: String,
    pub permission: RolePermission,
    /// The link's code, sealed.
    pub code: String,
    pub inviter: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

const INVITATION: &str = "SELECT i.id, i.email, i.role_id, r.name AS role_name, r.permission,
        i.code, i.inviter, i.created_at, i.expires_at
    FROM invitations i JOIN roles r ON r.id = i.role_id";

pub async fn invitations<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
) -> sqlx::Result<Vec<InvitationRow>> {
    sqlx::query_as(&format!(
        "{INVITATION} WHERE i.organization_id = ? ORDER BY i.created_at DESC"
    ))
    .bind(organization_id.hyphenated())
    .fetch_all(db)
    .await
}

pub async fn invitation<'e>(
    db: impl SqliteExecutor<'e>,
    organization_id: Uuid,
    id: Uuid,
) -> ApiResult<InvitationRow> {
    sqlx::query_as(&format!(
        "{INVITATION} WHERE i.id = ? AND i.organization_id = ?"
    ))
    .bind(id.hyphenated())
    .bind(organization_id.hyphenated())
    .fetch_optional(db)
    .await?
    .ok_or_else(|| ApiError::not_found("invitation"))
}

pub async fn insert_invitation(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    row: &InvitationRow,
) -> ApiResult<()> {
    sqlx::query(
        "INSERT INTO invitations (id, organization_id, email, role_id, code, inviter, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(row.id.hyphenated())
    .bind(organization_id.hyphenated())
    .bind(&row.email)
    .bind(row.role_id.hyphenated())
    .bind(&row.code)
    .bind(&row.inviter)
    .bind(row.created_at)
    .bind(row.expires_at)
    .execute(conn)
    .await
    .on_unique_violation("email", "invitation")?;
    Ok(())
}

pub async fn delete_invitation(conn: &mut SqliteConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM invitations WHERE id = ?")
        .bind(id.hyphenated())
        .execute(conn)
        .await
        .map(drop)
}

/// Removes the organization's expired invitation of `email`, if it has one.
pub async fn delete_expired_invitation(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    email: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "DELETE FROM invitations WHERE organization_id = ? AND email = ? AND expires_at <= ?",
    )
    .bind(organization_id.hyphenated())
    .bind(email)
    .bind(Utc::now())
    .execute(conn)
    .await
    .map(drop)
}

/// A session of the member, by its token's hash.
pub async fn insert_session(
    conn: &mut SqliteConnection,
    member_id: Uuid,
    token_hash: &str,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO member_sessions (token_hash, member_id, created_at) VALUES (?, ?, ?)")
        .bind(token_hash)
        .bind(member_id.hyphenated())
        .bind(Utc::now())
        .execute(conn)
        .await
        .map(drop)
}

/// The member a session token signs in, with their organization and role.
#[derive(sqlx::FromRow)]
pub struct SessionMember {
    #[sqlx(try_from = "Hyphenated")]
    pub member_id: Uuid,
    #[sqlx(try_from = "Hyphenated")]
    pub organization_id: Uuid,
    pub email: String,
    pub role_name: String,
    pub permission: RolePermission,
    pub last_activity_at: Option<DateTime<Utc>>,
}

pub async fn session_member<'e>(
    db: impl SqliteExecutor<'e>,
    token_hash: &str,
) -> sqlx::Result<Option<SessionMember>> {
    sqlx::query_as(
        "SELECT m.id AS member_id, m.organization_id, m.email, r.name AS role_name, r.permission,
                m.last_activity_at
         FROM member_sessions s JOIN members m ON m.id = s.member_id JOIN roles r ON r.id = m.role_id
         WHERE s.token_hash = ?",
    )
    .bind(token_hash)
    .fetch_optional(db)
    .await
}

/// Notes that the member used the API now.
pub async fn touch<'e>(db: impl SqliteExecutor<'e>, member_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("UPDATE members SET last_activity_at = ? WHERE id = ?")
        .bind(Utc::now())
        .bind(member_id.hyphenated())
        .execute(db)
        .await
        .map(drop)
}

/// A role of the organization, as a member or an invitation is given it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct RoleRow {
    #[sqlx(try_from = "Hyphenated")]
    pub id: Uuid,
    pub name: String,
    pub permission: RolePermission,
}

/// The organization's role with this id.
pub async fn role(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<RoleRow>> {
    sqlx::query_as("SELECT id, name, permission FROM roles WHERE id = ? AND organization_id = ?")
        .bind(id.hyphenated())
        .bind(organization_id.hyphenated())
        .fetch_optional(conn)
        .await
}

/// The organization's built-in role granting `permission` (named after it).
pub async fn built_in_role(
    conn: &mut SqliteConnection,
    organization_id: Uuid,
    permission: RolePermission,
) -> sqlx::Result<RoleRow> {
    sqlx::query_as(
        "SELECT id, name, permission FROM roles WHERE organization_id = ? AND name = ? AND built_in = 1",
    )
    .bind(organization_id.hyphenated())
    .bind(permission)
    .fetch_one(conn)
    .await
}
