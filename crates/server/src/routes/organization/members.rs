//! An organization's members (`/organization/{id}/member`) and invitations
//! (`/organization/{id}/inviteMember`). The person invited accepts signed in as themselves
//! (`POST …/inviteMember/{id}`, their token's e-mail address the invitation's), or, without an
//! identity provider, through the invitation's link (`POST /invitation/accept`, this server's),
//! which issues them a session token held to their role as tokens are. No change leaves the
//! organization without a member who is an admin, once it has members, nor takes its owner
//! away or their admin role.

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::Json;
use chrono::{TimeDelta, Utc};
use platform_api::audit::{EventType, SubTargetType, TargetType};
use platform_api::paths;
use platform_api::{
    FieldError, InvitationAcceptance, InvitationSignIn, InvitationStatus, InviteMember,
    InviteMemberRequest, List, Member, MemberRemoval, MemberRole, MemberRoleUpdateRequest,
    INVITATION_DAYS,
};
use rand::distr::{Alphanumeric, SampleString};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::auth::{generate_token, hash_token};
use crate::caller::{role_permission, Account, Caller, Client, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::members::{self as store, Admins, InvitationRow, RoleRow};
use crate::store::organizations;

pub fn register(routes: &mut RouteTable) {
    let members = paths::MEMBERS;
    let invitations = paths::INVITATIONS;
    let invitation = paths::INVITATION;
    routes
        .add(
            Method::GET,
            members,
            Permission::Read,
            Doc::new("The organization's members, each with their role and last activity")
                .answers_list_of::<Member>(StatusCode::OK),
            list_members,
        )
        .add(
            Method::PUT,
            members,
            Permission::Admin,
            Doc::new(
                "Give a member another role; refused when it would leave no member who is an admin",
            )
            .body::<MemberRoleUpdateRequest>()
            .answers_nothing(StatusCode::OK),
            change_role,
        )
        .add(
            Method::DELETE,
            members,
            Permission::Admin,
            Doc::new(
                "Remove a member (their sessions end); refused when it would leave no member who is an admin",
            )
            .body::<MemberRemoval>()
            .answers_nothing(StatusCode::NO_CONTENT),
            remove_member,
        )
        .add(
            Method::GET,
            invitations,
            Permission::Admin,
            Doc::new("The invitations not yet accepted, each with its link")
                .answers_list_of::<InviteMember>(StatusCode::OK),
            list_invitations,
        )
        .add(
            Method::POST,
            invitations,
            Permission::Admin,
            Doc::new(format!(
                "Invite someone by e-mail with a role: the answer's link, valid {INVITATION_DAYS} \
                 days, signs them in (this server sends no mail: give them the link)"
            ))
            .body::<InviteMemberRequest>()
            .answers::<InviteMember>(StatusCode::CREATED),
            invite,
        )
        .add(
            Method::GET,
            invitation,
            Permission::Admin,
            Doc::new("Read an invitation").answers::<InviteMember>(StatusCode::OK),
            read_invitation,
        )
        .add(
            Method::DELETE,
            invitation,
            Permission::Admin,
            Doc::new("Revoke an invitation: its link no longer signs anyone in")
                .answers_nothing(StatusCode::NO_CONTENT),
            revoke_invitation,
        )
        .add(
            Method::POST,
            invitation,
            Permission::SignedIn,
            Doc::new(
                "Accept an invitation, signed in as the person invited (their access token's                  e-mail address the invitation's): they become a member with its role",
            )
            .answers::<InviteMember>(StatusCode::CREATED),
            accept_signed_in,
        );
}

/// 409 when `member_id` is the organization's owner: they cannot leave, be removed or lose
/// their admin role until they give the ownership to another member.
async fn not_the_owner(
    conn: &mut sqlx::SqliteConnection,
    organization_id: Uuid,
    member_id: Uuid,
    what: &str,
) -> ApiResult<()> {
    let organization = organizations::find(&mut *conn, organization_id).await?;
    if organization.owner == Some(member_id) {
        return Err(ApiError::conflict(format!(
            "This member owns the organization: {what} once they have given its ownership to              another member."
        )));
    }
    Ok(())
}

/// The audit log's target of a change to a member or an invitation: the person, by e-mail.
fn person(id: Uuid, email: &str) -> Target {
    Target::new(TargetType::MembersAndRoles, id, email)
}

async fn list_members(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<Member>>> {
    own_organization(&caller, organization_id)?;
    let rows = store::members(&state.db, organization_id).await?;
    Ok(Json(List::new(
        rows.into_iter().map(Member::from).collect(),
    )))
}

/// The organization's role with this id, or a 400 naming `field`.
async fn role_of(
    conn: &mut sqlx::SqliteConnection,
    organization_id: Uuid,
    id: Uuid,
    field: &str,
) -> ApiResult<RoleRow> {
    store::role(conn, organization_id, id)
        .await?
        .ok_or_else(|| {
            ApiError::invalid(vec![FieldError::new(
                field,
                "is not a role of this organization",
            )])
        })
}

/// A member's user id as the request gives it (the document types it as a string).
fn user_id(value: &str) -> ApiResult<Uuid> {
    value
        .trim()
        .parse()
        .map_err(|_| ApiError::invalid(vec![FieldError::new("user_id", "must be a member's id")]))
}

async fn change_role(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<MemberRoleUpdateRequest>,
) -> ApiResult<StatusCode> {
    own_organization(&caller, organization_id)?;
    let id = user_id(&request.user_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = store::member(&mut *tx, organization_id, id).await?;
    let role = role_of(&mut tx, organization_id, request.role_id, "role_id").await?;
    if role.permission != platform_api::RolePermission::Admin {
        not_the_owner(&mut tx, organization_id, id, "they can have another role").await?;
    }
    let admins = Admins::of(&mut tx, organization_id).await?;
    store::set_role(&mut tx, id, role.id).await?;
    admins.kept(&mut tx, organization_id).await?;
    let after = store::member(&mut *tx, organization_id, id).await?;
    let (before, after) = (Member::from(before), Member::from(after));
    let change = Change::new(EventType::Update, person(id, &after.email))
        .of(SubTargetType::MemberRole)
        .before(&before)
        .after(&after);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::OK)
}

async fn remove_member(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<MemberRemoval>,
) -> ApiResult<StatusCode> {
    own_organization(&caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let member = store::member(&mut *tx, organization_id, request.user_id).await?;
    not_the_owner(&mut tx, organization_id, member.id, "they can leave").await?;
    let admins = Admins::of(&mut tx, organization_id).await?;
    store::delete_member(&mut tx, member.id).await?;
    admins.kept(&mut tx, organization_id).await?;
    let removed = Member::from(member);
    let change = Change::new(EventType::Delete, person(removed.id, &removed.email))
        .of(SubTargetType::MemberRole)
        .before(&removed);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// An invitation as answered: its link rebuilt from its sealed code.
fn answer(
    state: &AppState,
    headers: &HeaderMap,
    (organization_id, organization_name): (Uuid, &str),
    row: InvitationRow,
) -> ApiResult<InviteMember> {
    let code = state.sealer.open(&row.code).map_err(ApiError::internal)?;
    let link = format!(
        "{}/invitation/{organization_id}/{}#code={code}",
        state.public.origin(headers),
        row.id
    );
    let status = if row.expires_at <= Utc::now() {
        InvitationStatus::Expired
    } else {
        InvitationStatus::Pending
    };
    Ok(InviteMember {
        id: row.id,
        created_at: row.created_at,
        updated_at: None,
        email: row.email,
        role: MemberRole::of(row.permission),
        role_id: Some(row.role_id),
        role_name: Some(row.role_name),
        invitation_link: link,
        invitation_status: status,
        inviter: row.inviter,
        organization_name: Some(organization_name.to_string()),
        logo_url: None,
    })
}

async fn list_invitations(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<InviteMember>>> {
    own_organization(&caller, organization_id)?;
    let name = organizations::name(&state.db, organization_id).await?;
    let rows = store::invitations(&state.db, organization_id).await?;
    let invitations = rows
        .into_iter()
        .map(|row| answer(&state, &headers, (organization_id, &name), row))
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(Json(List::new(invitations)))
}

async fn read_invitation(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath((organization_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<InviteMember>> {
    own_organization(&caller, organization_id)?;
    let name = organizations::name(&state.db, organization_id).await?;
    let row = store::invitation(&state.db, organization_id, id).await?;
    Ok(Json(answer(
        &state,
        &headers,
        (organization_id, &name),
        row,
    )?))
}

async fn invite(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<InviteMemberRequest>,
) -> ApiResult<(StatusCode, Json<InviteMember>)> {
    own_organization(&caller, organization_id)?;
    request.validate().map_err(ApiError::invalid)?;
    let email = request.email.trim().to_string();
    let name = organizations::name(&state.db, organization_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let role = match request.role_id {
        Some(id) => role_of(&mut tx, organization_id, id, "role_id").await?,
        None => {
            let permission = request.role.unwrap_or(MemberRole::Viewer).permission();
            store::built_in_role(&mut tx, organization_id, permission).await?
        }
    };
    if store::is_member(&mut tx, organization_id, &email).await? {
        return Err(ApiError::taken("email", "member"));
    }
    // An expired invitation of the same person gives way to the new one.
    store::delete_expired_invitation(&mut tx, organization_id, &email).await?;
    let code = Alphanumeric.sample_string(&mut rand::rng(), 32);
    let now = Utc::now();
    let row = InvitationRow {
        id: Uuid::new_v4(),
        email,
        role_id: role.id,
        role_name: role.name,
        permission: role.permission,
        code: state.sealer.seal(&code),
        inviter: caller.name.clone(),
        created_at: now,
        expires_at: now + TimeDelta::days(INVITATION_DAYS),
    };
    store::insert_invitation(&mut tx, organization_id, &row).await?;
    let (id, invited) = (row.id, row.email.clone());
    let created = answer(&state, &headers, (organization_id, &name), row)?;
    // The entry names the invitation, never its link.
    let entry = InviteMember {
        invitation_link: String::new(),
        ..created.clone()
    };
    let change = Change::new(EventType::Create, person(id, &invited))
        .of(SubTargetType::Invitation)
        .after(&entry);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn revoke_invitation(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    own_organization(&caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let row = store::invitation(&mut *tx, organization_id, id).await?;
    store::delete_invitation(&mut tx, id).await?;
    let change =
        Change::new(EventType::Delete, person(id, &row.email)).of(SubTargetType::Invitation);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /invitation/accept` (no token: the link's code is the credential): the invitation
/// becomes a member, who is signed in with a new session token. 400 for an expired invitation;
/// 404 for an unknown one or a wrong code, alike.
pub async fn accept_invitation(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<InvitationAcceptance>,
) -> ApiResult<(StatusCode, Json<InvitationSignIn>)> {
    let organization_id = request.organization_id;
    let mut tx = db::begin_write(&state.writes).await?;
    let unknown = || ApiError::not_found("invitation");
    let row = store::invitation(&mut *tx, organization_id, request.invitation_id)
        .await
        .map_err(|_| unknown())?;
    let code = state.sealer.open(&row.code).map_err(ApiError::internal)?;
    // Compared as hashes: the time taken says nothing of how much of the code was right.
    if hash_token(&code) != hash_token(request.code.trim()) {
        return Err(unknown());
    }
    if row.expires_at <= Utc::now() {
        return Err(ApiError::unanswerable(
            "INVITATION_EXPIRED",
            "This invitation has expired: ask for a new one.",
        ));
    }
    let member_id = Uuid::new_v4();
    store::insert_member(
        &mut tx,
        organization_id,
        (member_id, &row.email, row.role_id),
    )
    .await?;
    store::delete_invitation(&mut tx, row.id).await?;
    let token = generate_token();
    store::insert_session(&mut tx, member_id, &hash_token(&token)).await?;
    let member = Member::from(store::member(&mut *tx, organization_id, member_id).await?);
    let permission = role_permission(row.permission.as_str())
        .ok_or_else(|| ApiError::internal("a role grants an unknown permission"))?;
    // The new member is who accepted.
    let joined = Caller {
        organization_id,
        name: member.email.clone(),
        role_name: row.role_name,
        client: Client::of(&headers),
        permission,
        account: Account::Member(member_id),
    };
    let change = Change::new(EventType::Create, person(member_id, &member.email))
        .of(SubTargetType::Invitation)
        .after(&member);
    audit::record(&mut tx, &joined, change).await?;
    tx.commit().await?;
    Ok((
        StatusCode::CREATED,
        Json(InvitationSignIn {
            organization_id,
            member,
            token,
        }),
    ))
}

/// `POST /organization/{id}/inviteMember/{invitationId}`: the person signed in accepts the
/// invitation made to their e-mail address (their access token's), becoming a member with its
/// role; the organization's first admin who is a person owns it when nobody does yet.
async fn accept_signed_in(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiPath((organization_id, id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<(StatusCode, Json<InviteMember>)> {
    let Account::Person {
        id: person_id,
        member_id: None,
    } = caller.account
    else {
        return Err(match caller.account {
            Account::Person { .. } => ApiError::taken("invitation", "member"),
            _ => ApiError::people_only(
                "An invitation is accepted by the person invited, signed in as themselves (or \
                 through its link): an API token cannot.",
            ),
        });
    };
    let invited = crate::store::people::find(&state.db, person_id)
        .await?
        .ok_or_else(|| ApiError::not_found("account"))?;
    let name = organizations::name(&state.db, organization_id).await?;
    let mut tx = db::begin_write(&state.writes).await?;
    let row = store::invitation(&mut *tx, organization_id, id).await?;
    let theirs = invited
        .email
        .as_deref()
        .is_some_and(|email| email.eq_ignore_ascii_case(&row.email));
    if !theirs {
        // Someone else's invitation reads as none: its existence is not theirs to learn.
        return Err(ApiError::not_found("invitation"));
    }
    if row.expires_at <= Utc::now() {
        return Err(ApiError::unanswerable(
            "INVITATION_EXPIRED",
            "This invitation has expired: ask for a new one.",
        ));
    }
    let member_id = Uuid::new_v4();
    store::insert_person_member(
        &mut tx,
        organization_id,
        (member_id, &row.email, row.role_id),
        person_id,
    )
    .await?;
    store::delete_invitation(&mut tx, row.id).await?;
    let organization = organizations::find(&mut *tx, organization_id).await?;
    if organization.owner.is_none() && row.permission == platform_api::RolePermission::Admin {
        organizations::set_owner(&mut tx, organization_id, member_id).await?;
    }
    let member = Member::from(store::member(&mut *tx, organization_id, member_id).await?);
    let joined = Caller {
        organization_id,
        role_name: row.role_name.clone(),
        permission: role_permission(row.permission.as_str())
            .ok_or_else(|| ApiError::internal("a role grants an unknown permission"))?,
        account: Account::Person {
            id: person_id,
            member_id: Some(member_id),
        },
        ..caller
    };
    // The invitation accepted, as it was: its link no longer signs anyone in.
    let accepted = answer(&state, &headers, (organization_id, &name), row)?;
    let change = Change::new(EventType::Create, person(member_id, &member.email))
        .of(SubTargetType::Invitation)
        .after(&member);
    audit::record(&mut tx, &joined, change).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(accepted)))
}
