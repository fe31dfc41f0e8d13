//! `/organization/:org/settings/members`: who belongs to the organization, with their role and
//! last activity; a role changed or a member removed (never the last admin, the API says why);
//! colleagues invited by e-mail with a role, each invitation's link to copy and send (no mail is
//! sent), its status, and its revocation.

use leptos::prelude::*;
use platform_api::{
    CustomRole, InviteMember, InviteMemberRequest, Member, MemberRoleUpdateRequest, RolePermission,
    WireEnum,
};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::copy_button::CopyButton;
use crate::components::delete_button::DeleteButton;
use crate::components::empty_state::EmptyState;
use crate::components::form::{Form, SubmitButton};
use crate::components::form_field::{SelectField, TextField};
use crate::components::loaded::loaded;
use crate::components::new_dialog::NewDialog;
use crate::components::relative_time::RelativeTime;
use crate::routes::address::OrganizationAddress;
use crate::routes::current_id;
use crate::routes::organization::organization_records;
use crate::routes::organization::settings::roles::{least_role, role_option, role_options};
use crate::routes::organization::settings::SettingsHeader;
use crate::state::role::Permitted;
use crate::state::toasts::use_toasts;

#[component]
pub fn Members() -> impl IntoView {
    let org = current_id(|a: &OrganizationAddress| a.org);
    let members = organization_records(|api, org| async move { api.members(org).await });
    let invitations = organization_records(|api, org| async move { api.invitations(org).await });
    let roles = organization_records(|api, org| async move { api.roles(org).await });
    let members_changed = Callback::new(move |()| members.refetch());
    let invitations_changed = Callback::new(move |()| invitations.refetch());
    let role_list = Signal::derive(move || {
        roles
            .get()
            .and_then(Result::ok)
            .map(|(_, roles)| roles)
            .unwrap_or_default()
    });
    view! {
        <SettingsHeader title="Members"
            lead="Who belongs to the organization, and the role each is held to."/>
        <section class="card" aria-labelledby="members-title">
            <h2 id="members-title">"Members"</h2>
            {loaded(members, 3, move |(org, list)| {
                if list.is_empty() {
                    return view! {
                        <EmptyState title="No member yet"
                            hint="Invite a colleague below: their link signs them in with the role you choose."/>
                    }.into_any();
                }
                view! {
                    <table class="table">
                        <thead><tr>
                            <th scope="col">"Member"</th>
                            <th scope="col">"Role"</th>
                            <th scope="col">"Last active"</th>
                            <th scope="col"><span class="visually-hidden">"Actions"</span></th>
                        </tr></thead>
                        <tbody>
                            {list.into_iter().map(|member| view! {
                                <MemberRow org member roles=role_list on_changed=members_changed/>
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any()
            })}
        </section>
        <section class="card" aria-labelledby="invitations-title">
            <h2 id="invitations-title">"Invitations"</h2>
            {loaded(invitations, 2, move |(org, list)| {
                if list.is_empty() {
                    return view! { <p class="muted">"No invitation waiting."</p> }.into_any();
                }
                view! {
                    <ul class="record-list">
                        {list.into_iter().map(|invitation| view! {
                            <InvitationItem org invitation on_revoked=invitations_changed/>
                        }).collect_view()}
                    </ul>
                }.into_any()
            })}
        </section>
        {move || org.get().map(|org| view! {
            <NewDialog label="Invite a member" needs=RolePermission::Admin>
                <InviteForm org roles=role_list on_invited=invitations_changed/>
            </NewDialog>
        })}
    }
}

#[component]
fn MemberRow(
    org: Uuid,
    member: Member,
    roles: Signal<Vec<CustomRole>>,
    on_changed: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let permitted = Permitted::new(RolePermission::Admin, "change members");
    let id = member.id;
    let role = RwSignal::new(member.role_id.map(|id| id.to_string()).unwrap_or_default());
    let change = Action::new_local(move |role_id: &Uuid| {
        let request = MemberRoleUpdateRequest {
            user_id: id.to_string(),
            role_id: *role_id,
        };
        async move {
            match api.change_member_role(org, &request).await {
                Ok(()) => toasts.success("Role changed: it holds from the member's next call."),
                Err(error) => toasts.error(error.to_string()),
            }
            on_changed.run(());
        }
    });
    let choose = move |event: leptos::ev::Event| {
        if let Ok(chosen) = event_target_value(&event).parse::<Uuid>() {
            change.dispatch_local(chosen);
        }
    };
    let label = format!("Role of {}", member.email);
    let role_name = member.role_name.clone().unwrap_or_default();
    let email = member.email.clone();
    view! {
        <tr data-member=member.email.clone()>
            <td><strong>{member.email.clone()}</strong></td>
            <td>
                // Who may not change roles (or read them all) sees the member's role named.
                {move || if roles.with(Vec::is_empty) || permitted.refusal().is_some() {
                    view! { <span data-role=role_name.clone()>{role_name.clone()}</span> }.into_any()
                } else {
                    view! {
                        <select aria-label=label.clone() on:change=choose prop:value=move || role.get()
                            disabled=move || change.pending().get()>
                            {roles.get().iter().map(|option| {
                                let (value, text) = role_option(option);
                                let value = value.to_string();
                                let selected = value == role.get_untracked();
                                view! { <option value=value selected=selected>{text}</option> }
                            }).collect_view()}
                        </select>
                    }.into_any()
                }}
            </td>
            <td>{match member.last_activity_at {
                Some(at) => view! { <RelativeTime at/> }.into_any(),
                None => view! { <span class="muted">"Never"</span> }.into_any(),
            }}</td>
            <td class="row-actions">
                <DeleteButton question="Remove this member?" item=email
                    consequence="Their sessions end at once; invite them again to bring them back."
                    done="Member removed."
                    delete=move || async move { api.remove_member(org, id).await }
                    on_deleted=on_changed/>
            </td>
        </tr>
    }
}

#[component]
fn InvitationItem(org: Uuid, invitation: InviteMember, on_revoked: Callback<()>) -> impl IntoView {
    let api = use_api();
    let id = invitation.id;
    let role = invitation
        .role_name
        .clone()
        .unwrap_or_else(|| invitation.role.label().to_string());
    let (badge, status) = if invitation.invitation_status == platform_api::InvitationStatus::Pending
    {
        ("badge badge--progress", "Waiting")
    } else {
        ("badge badge--neutral", "Expired")
    };
    let email = invitation.email.clone();
    view! {
        <li class="record" data-invitation=invitation.email.clone()>
            <div class="record__head">
                <strong>{invitation.email.clone()}</strong>
                <span class="tag">{role}</span>
                <span class=badge><span class="badge__dot" aria-hidden="true"></span>{status}</span>
                <span class="muted">{format!("invited by {}", invitation.inviter)}</span>
            </div>
            <p class="muted">"Send them this link: opened, it signs them in. No mail is sent."</p>
            <div class="record__actions">
                <span class="mono invitation__link">{invitation.invitation_link.clone()}</span>
                <CopyButton text=invitation.invitation_link label="Copy the invitation link"/>
                <DeleteButton question="Revoke this invitation?" item=email
                    consequence="Its link no longer signs anyone in."
                    done="Invitation revoked."
                    delete=move || async move { api.revoke_invitation(org, id).await }
                    on_deleted=on_revoked/>
            </div>
        </li>
    }
}

#[component]
fn InviteForm(
    org: Uuid,
    roles: Signal<Vec<CustomRole>>,
    on_invited: Callback<()>,
) -> impl IntoView {
    let api = use_api();
    let email = RwSignal::new(String::new());
    let role = RwSignal::new(String::new());
    // The least role granted until one is chosen.
    Effect::new(move |_| {
        if let (true, Some(least)) = (role.get_untracked().is_empty(), least_role(&roles.get())) {
            role.set(least.to_string());
        }
    });
    let form = Form::new(
        move |request: InviteMemberRequest| async move { api.invite(org, &request).await },
        move |invited: InviteMember| {
            email.set(String::new());
            on_invited.run(());
            format!(
                "{} invited: copy their link below and send it.",
                invited.email
            )
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = InviteMemberRequest {
            email: email.get_untracked().trim().to_string(),
            role: None,
            role_id: role.get_untracked().parse().ok(),
        };
        let checked = request.validate();
        form.submit(request, checked);
    };
    view! {
        <form class="card" on:submit=submit novalidate aria-label="Invite a member">
            <h2>"Invite a member"</h2>
            <div class="form-grid">
                <TextField label="E-mail" name="email" value=email errors required=true
                    input_type="email" placeholder="ada@example.com"/>
                {move || {
                    let options = role_options(&roles.get());
                    view! { <SelectField label="Role" name="role_id" value=role options errors required=true/> }
                }}
            </div>
            <SubmitButton form label="Invite"/>
        </form>
    }
}
