//! Roles: the four built-in ones, fixed, and custom roles, each granting one permission level;
//! listed by name to every member (`availableRole`, what a role picker offers), managed by ADMIN
//! only. A role still carried by a token cannot be deleted.

use axum::extract::State;
use axum::http::{Method, StatusCode};
use axum::Json;
use platform_api::audit::{EventType, SubTargetType, TargetType};
use platform_api::paths;
use platform_api::{CallerRole, CustomRole, CustomRoleRequest, List};
use uuid::Uuid;

use crate::audit::{self, Change, Target};
use crate::caller::{Caller, Permission};
use crate::db;
use crate::error::{ApiError, ApiJson, ApiPath, ApiResult};
use crate::routes::own_organization;
use crate::routes::{Doc, RouteTable};
use crate::state::AppState;
use crate::store::members::Admins;
use crate::store::roles;

pub fn register(routes: &mut RouteTable) {
    let roles = paths::CUSTOM_ROLES;
    routes.add(
        Method::GET,
        paths::CURRENT_ROLE,
        Permission::Read,
        Doc::new(
            "The role the caller's token carries, so that a client can tell what it may do \
             before trying (this server's; the production document has none)",
        )
        .answers::<CallerRole>(StatusCode::OK),
        current_role,
    );
    routes.add(
        Method::GET,
        paths::AVAILABLE_ROLES,
        Permission::Read,
        Doc::new(
            "Every role a member or a token may be given, built-in and custom, by name (this \
             server's answer says what each grants, as its custom roles do)",
        )
        .answers_list_of::<CustomRole>(StatusCode::OK),
        list_roles,
    );
    let role = paths::CUSTOM_ROLE;
    routes
        .add(
            Method::GET,
            roles,
            Permission::Admin,
            Doc::new("List the roles a token can carry")
                .answers_list_of::<CustomRole>(StatusCode::OK),
            list_roles,
        )
        .add(
            Method::POST,
            roles,
            Permission::Admin,
            Doc::new("Create a custom role")
                .body::<CustomRoleRequest>()
                .answers::<CustomRole>(StatusCode::CREATED),
            create_role,
        )
        .add(
            Method::GET,
            role,
            Permission::Admin,
            Doc::new("Read a role").answers::<CustomRole>(StatusCode::OK),
            get_role,
        )
        .add(
            Method::PUT,
            role,
            Permission::Admin,
            Doc::new("Update a custom role; its tokens get its new permission at once")
                .body::<CustomRoleRequest>()
                .answers::<CustomRole>(StatusCode::OK),
            update_role,
        )
        .add(
            Method::DELETE,
            role,
            Permission::Admin,
            Doc::new("Delete a custom role no token carries")
                .answers_nothing(StatusCode::NO_CONTENT),
            delete_role,
        );
}

async fn current_role(
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<CallerRole>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(CallerRole {
        name: caller.role_name.clone(),
        permission: caller.permission(),
    }))
}

async fn list_roles(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
) -> ApiResult<Json<List<CustomRole>>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(List::new(
        roles::roles(&state.db, organization_id).await?,
    )))
}

async fn create_role(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(organization_id): ApiPath<Uuid>,
    ApiJson(request): ApiJson<CustomRoleRequest>,
) -> ApiResult<(StatusCode, Json<CustomRole>)> {
    own_organization(&caller, organization_id)?;
    request.validate().map_err(ApiError::invalid)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let created = roles::insert(&mut tx, organization_id, &request).await?;
    audit::record(
        &mut tx,
        &caller,
        change(EventType::Create, &created).after(&created),
    )
    .await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn get_role(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, role_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<Json<CustomRole>> {
    own_organization(&caller, organization_id)?;
    Ok(Json(
        roles::find(&mut *state.db.acquire().await?, organization_id, role_id).await?,
    ))
}

async fn update_role(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, role_id)): ApiPath<(Uuid, Uuid)>,
    ApiJson(request): ApiJson<CustomRoleRequest>,
) -> ApiResult<Json<CustomRole>> {
    own_organization(&caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let current = custom(roles::find(&mut tx, organization_id, role_id).await?)?;
    request.validate().map_err(ApiError::invalid)?;
    let admins = Admins::of(&mut tx, organization_id).await?;
    let updated = roles::update(&mut tx, &current, &request).await?;
    admins.kept(&mut tx, organization_id).await?;
    let change = change(EventType::Update, &updated)
        .before(&current)
        .after(&updated);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(Json(updated))
}

async fn delete_role(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((organization_id, role_id)): ApiPath<(Uuid, Uuid)>,
) -> ApiResult<StatusCode> {
    own_organization(&caller, organization_id)?;
    let mut tx = db::begin_write(&state.writes).await?;
    let current = custom(roles::find(&mut tx, organization_id, role_id).await?)?;
    let (tokens, members) = roles::carried_by(&mut tx, role_id).await?;
    if tokens > 0 {
        return Err(ApiError::conflict(format!(
            "{tokens} API token(s) carry this role; delete them or give them another role first."
        )));
    }
    if members > 0 {
        return Err(ApiError::conflict(format!(
            "{members} member(s) have this role; give them another role first."
        )));
    }
    let admins = Admins::of(&mut tx, organization_id).await?;
    roles::delete(&mut tx, role_id).await?;
    admins.kept(&mut tx, organization_id).await?;
    let change = change(EventType::Delete, &current).before(&current);
    audit::record(&mut tx, &caller, change).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A change to a role, for the audit log.
fn change(event_type: EventType, role: &CustomRole) -> Change {
    let target = Target::new(TargetType::MembersAndRoles, role.id, &role.name);
    Change::new(event_type, target).of(SubTargetType::CustomRole)
}

/// 409 for the built-in roles, which stay as they are.
fn custom(role: CustomRole) -> ApiResult<CustomRole> {
    if role.built_in {
        Err(ApiError::conflict(format!(
            "{} is a built-in role; it cannot be changed or deleted.",
            role.name
        )))
    } else {
        Ok(role)
    }
}
