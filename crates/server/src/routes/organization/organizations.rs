//! Organizations (`/organization`): those the caller belongs to (an API token's own; every one of
//! a person's memberships), reading and editing one, and, for a person, making one (they own it
//! and are its admin), deleting one they own, and giving its ownership to another member.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::audit::{EventType, TargetType};
use platform_api::paths;
use platform_api::{
    FieldError, List, Organization, OrganizationEditRequest, OrganizationRequest, RolePermission,
    TransferOwnershipRequest,
};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Account, Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::{members, organizations, people};

pub fn register(routes: &mut RouteTable) {
    routes
        .add(
            Method::GET,
            paths::ORGANIZATIONS,
            Permission::SignedIn,
            Doc::new(
                "The caller's organizations: an API token's own, every one a person belongs to",
            )
            .answers_list_of::<Organization>(StatusCode::OK),
            list_organizations,
        )
        .add(
            Method::POST,
            paths::ORGANIZATIONS,
            Permission::SignedIn,
            Doc::new(
                "Make an organization, owned by the person who asks (its admin); an API token, \
                 bound to its own, cannot",
            )
            .body::<OrganizationRequest>()
            .answers::<Organization>(StatusCode::CREATED),
            create_organization,
        )
        .add(
            Method::GET,
            paths::ORGANIZATION,
            Permission::Read,
            Doc::new("Read an organization").answers::<Organization>(StatusCode::OK),
            get_organization,
        )
        .add(
            Method::PUT,
            paths::ORGANIZATION,
            Permission::Admin,
            Doc::new("Rename an organization and set its description; its plan stays")
                .body::<OrganizationEditRequest>()
                .answers::<Organization>(StatusCode::OK),
            edit_organization,
        )
        .add(
            Method::DELETE,
            paths::ORGANIZATION,
            Permission::Admin,
            Doc::new(
                "Delete an organization with all it holds: its owner only, when no action runs \
                 in it",
            )
            .answers_nothing(StatusCode::NO_CONTENT),
            delete_organization,
        )
        .add(
            Method::POST,
            paths::TRANSFER_OWNERSHIP,
            Permission::Admin,
            Doc::new(
                "Give the organization's ownership to another member, who becomes an admin: its \
                 owner only",
            )
            .body::<TransferOwnershipRequest>()
            .answers_nothing(StatusCode::NO_CONTENT),
            transfer_ownership,
        );
}

async fn list_organizations(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<List<Organization>>> {
    let ids: Vec<Uuid> = match caller.account {
        Account::Person { id, .. } => people::memberships(&state.db, id)
            .await?
            .into_iter()
            .map(|membership| membership.organization_id)
            .collect(),
        Account::Token(_) | Account::Member(_) => vec![caller.organization_id],
    };
    let mut conn = state.db.acquire().await?;
    Ok(Json(List::new(
        organizations::with_ids(&mut conn, &ids).await?,
    )))
}

async fn create_organization(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(request): ApiJson<OrganizationRequest>,
) -> ApiResult<(StatusCode, Json<Organization>)> {
    let Account::Person { id: person_id, .. } = caller.account else {
        return Err(ApiError::people_only(
            "An API token belongs to its organization: sign in as a person to make another.",
        ));
    };
    request
        .validate(organizations::PLAN)
        .map_err(ApiError::invalid)?;
    let person = people::find(&state.db, person_id)
        .await?
        .ok_or_else(|| ApiError::not_found("account"))?;
    let email = person
        .email
        .clone()
        .unwrap_or_else(|| person.subject.clone());
    let mut tx = db::begin_write(&state.writes).await?;
    let description = request
        .description
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty());
    let id = organizations::insert(&mut tx, request.name.trim(), description).await?;
    let admin = members::built_in_role(&mut tx, id, RolePermission::Admin).await?;
    let member_id = Uuid::new_v4();
    members::insert_person_member(&mut tx, id, (member_id, &email, admin.id), person_id).await?;
    organizations::set_owner(&mut tx, id, member_id).await?;
    let created = organizations::find(&mut *tx, id).await?;
    // The entry is the new organization's: its owner made it.
    let owner = Caller {
        organization_id: id,
        role_name: admin.name,
        permission: Permission::Admin,
        account: Account::Person {
            id: person_id,
            member_id: Some(member_id),
        },
        ..caller
    };
    let change = Change::new(EventType::Create, organization_target(&created)).after(&created);
    audit::record(&mut tx, &owner, change).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn get_organization(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<Organization>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(organizations::find(&state.db, organization_id).await?))
}

async fn edit_organization(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<OrganizationEditRequest>,
) -> ApiResult<Json<Organization>> {
    own_organization(&caller, organization_id)?;
    request
        .validate(organizations::PLAN)
        .map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = organizations::find(&mut *tx, organization_id).await?;
    let after = Organization {
        name: request.name.trim().to_string(),
        description: request
            .description
            .as_deref()
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(str::to_string),
        updated_at: Some(chrono::Utc::now()),
        ..before.clone()
    };
    organizations::edit(&mut tx, &after).await?;
    let change = Change::new(EventType::Update, organization_target(&after))
        .before(&before)
        .after(&after);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(Json(after))
}

async fn delete_organization(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    own_organization(&caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let organization = organizations::find(&mut *tx, organization_id).await?;
    owner_only(&caller, &organization, "delete it")?;
    crate::store::scope::ensure_organization_idle(&mut tx, organization_id).await?;
    organizations::delete(&mut tx, organization_id).await?;
    tx.commit().await?;
    // Nothing of it is left to hold an audit entry: the server's log says who deleted it.
    tracing::info!(organization = %organization_id, by = %caller.name, "organization deleted");
    Ok(StatusCode::NO_CONTENT)
}

async fn transfer_ownership(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<TransferOwnershipRequest>,
) -> ApiResult<StatusCode> {
    own_organization(&caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let before = organizations::find(&mut *tx, organization_id).await?;
    owner_only(&caller, &before, "give it to someone else")?;
    let heir = members::member(&mut *tx, organization_id, request.user_id)
        .await
        .map_err(|_| {
            ApiError::invalid(vec![FieldError::new(
                "user_id",
                "is not a member of this organization",
            )])
        })?;
    // The owner may do all an admin may: the new one is made an admin if they were not.
    if heir.permission != RolePermission::Admin {
        let admin = members::built_in_role(&mut tx, organization_id, RolePermission::Admin).await?;
        members::set_role(&mut tx, heir.id, admin.id).await?;
    }
    organizations::set_owner(&mut tx, organization_id, heir.id).await?;
    let after = organizations::find(&mut *tx, organization_id).await?;
    let change = Change::new(EventType::Update, organization_target(&after))
        .before(&before)
        .after(&after);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// 403 unless the caller is the organization's owner.
fn owner_only(caller: &Caller, organization: &Organization, what: &str) -> ApiResult<()> {
    let member = match caller.account {
        Account::Person { member_id, .. } => member_id,
        Account::Token(_) | Account::Member(_) => None,
    };
    if member.is_some() && member == organization.owner {
        Ok(())
    } else {
        Err(ApiError::owner_only(format!(
            "Only the organization's owner may {what}."
        )))
    }
}

fn organization_target(organization: &Organization) -> Target {
    Target::new(
        TargetType::Organization,
        organization.id,
        organization.name.clone(),
    )
}
