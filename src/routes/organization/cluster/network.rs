//! A cluster's network: who writes its DNS records and under which domain (the platform, or
//! the team's Cloudflare or Route 53, whose secret is sent with each change and never shown),
//! and, on AWS, the routes its network sends beyond itself, applied by its next deployment.

use leptos::prelude::*;
use platform_api::{
    CloudProvider, Cluster, ClusterRoutingTableRequest, DnsProvider, DnsProviderKind,
    RolePermission, Route, Route53Credentials, Route53CredentialsType,
};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::form::Form;
use crate::components::form_field::{
    lines_of, optional_text, CheckboxField, EnumSelect, LinesField, TextField,
};
use crate::components::loaded::loaded;
use crate::state::resource::resource;
use crate::state::role::Permitted;

const SECRET_HINT: &str = "Sent with every change, kept sealed, never shown again.";

const PROVIDERS: &[DnsProviderKind] = &[
    DnsProviderKind::Platform,
    DnsProviderKind::Cloudflare,
    DnsProviderKind::Route53,
];

#[component]
pub fn Network(org: Uuid, cluster: Cluster) -> impl IntoView {
    let api = use_api();
    let id = cluster.id;
    let routed = cluster.cloud_provider == CloudProvider::Aws;
    let own_network = cluster.network();
    // One read for the card: the provider, and the routes where the network has them.
    let network = resource(move || async move {
        let dns = api.cluster_dns_provider(id).await?;
        let routes = if routed {
            Some(api.cluster_routing_table(org, id).await?)
        } else {
            None
        };
        Ok::<_, crate::api::ApiError>((dns, routes))
    });
    view! {
        <section class="card" aria-labelledby="network-title">
            <h2 id="network-title">"Network"</h2>
            {loaded(network, 3, move |(provider, routes)| view! {
                <h3>"DNS"</h3>
                <Dns cluster=id provider/>
                {routes.map(|routes| view! { <RoutesForm org cluster=id network=own_network.clone() routes/> })}
            })}
        </section>
    }
}

/// What the provider is, and the form that changes it.
#[component]
fn Dns(cluster: Uuid, provider: DnsProvider) -> impl IntoView {
    let api = use_api();
    let permitted = Permitted::new(RolePermission::Admin, "choose a cluster's DNS provider");
    let current = RwSignal::new(provider.clone());
    let kind = RwSignal::new(provider.provider);
    let domain = RwSignal::new(provider.domain.clone());
    let email = RwSignal::new(provider.email.clone().unwrap_or_default());
    let api_token = RwSignal::new(String::new());
    let proxied = RwSignal::new(provider.proxied.unwrap_or(false));
    let key_id = RwSignal::new(
        provider
            .credentials
            .as_ref()
            .map(|credentials| credentials.aws_access_key_id.clone())
            .unwrap_or_default(),
    );
    let secret_key = RwSignal::new(String::new());
    let region = RwSignal::new(provider.aws_region.clone().unwrap_or_default());
    let zone = RwSignal::new(provider.hosted_zone_id.clone().unwrap_or_default());
    let form = Form::new(
        move |request: DnsProvider| async move { api.edit_cluster_dns_provider(cluster, request).await },
        move |chosen: DnsProvider| {
            api_token.set(String::new());
            secret_key.set(String::new());
            let said = format!(
                "DNS records are written by {} from now on.",
                chosen.writer()
            );
            current.set(chosen);
            said
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let kind = kind.get_untracked();
        let cloudflare = kind == DnsProviderKind::Cloudflare;
        let route53 = kind == DnsProviderKind::Route53;
        let request = DnsProvider {
            email: optional_text(email).filter(|_| cloudflare),
            api_token: optional_text(api_token).filter(|_| cloudflare),
            proxied: cloudflare.then(|| proxied.get_untracked()),
            credentials: route53.then(|| Route53Credentials {
                kind: Route53CredentialsType::Static,
                aws_access_key_id: key_id.get_untracked().trim().to_string(),
                aws_secret_access_key: optional_text(secret_key),
            }),
            aws_region: optional_text(region).filter(|_| route53),
            hosted_zone_id: optional_text(zone).filter(|_| route53),
            ..DnsProvider::new(kind, domain.get_untracked().trim().to_string())
        };
        let checked = request.validate();
        form.submit(request, checked);
    };
    let regions = CloudProvider::Aws
        .region_names()
        .unwrap_or_default()
        .into_iter()
        .map(str::to_string)
        .collect::<Vec<_>>();
    view! {
        <p data-dns-provider=move || current.with(|provider| provider.provider.as_str())>
            "Records written by "<strong>{move || current.with(DnsProvider::writer)}</strong>
            " under "<strong class="mono">{move || current.with(|provider| provider.domain.clone())}</strong>
            "; a custom domain of a service here points at a name under it."
        </p>
        <form novalidate aria-label="Choose the DNS provider" on:submit=submit>
            <div class="form-inline__fields">
                <EnumSelect label="Provider" name="dns_provider.provider" value=kind errors only=PROVIDERS/>
                <TextField label="Domain" name="dns_provider.domain" value=domain errors required=true
                    placeholder="apps.example.com"/>
            </div>
            // Each provider's own fields, shown while it is chosen.
            <div hidden=move || kind.get() != DnsProviderKind::Cloudflare>
                <div class="form-inline__fields">
                    <TextField label="Account e-mail" name="dns_provider.email" value=email errors
                        input_type="email" required=true/>
                    <TextField label="API token" name="dns_provider.api_token" value=api_token errors
                        input_type="password" required=true hint=SECRET_HINT/>
                </div>
                <CheckboxField label="Proxied by Cloudflare" name="dns_provider.proxied" checked=proxied
                    hint="Custom domains then resolve to Cloudflare's addresses."/>
            </div>
            <div hidden=move || kind.get() != DnsProviderKind::Route53>
                <div class="form-inline__fields">
                    <TextField label="Access key id" name="dns_provider.credentials.aws_access_key_id"
                        value=key_id errors required=true/>
                    <TextField label="Secret access key" name="dns_provider.credentials.aws_secret_access_key"
                        value=secret_key errors input_type="password" required=true hint=SECRET_HINT/>
                    <TextField label="Region" name="dns_provider.aws_region" value=region errors
                        required=true suggestions=regions placeholder="eu-west-3"/>
                    <TextField label="Hosted zone id" name="dns_provider.hosted_zone_id" value=zone errors
                        placeholder="Z0965488LE74BWDEVQDB" hint="Left empty: the zone of the domain."/>
                </div>
            </div>
            <p class="actions__refusal">{move || permitted.refusal()}</p>
            <button type="submit" class="button button--secondary"
                disabled=move || form.pending() || permitted.refusal().is_some()
                title=move || permitted.refusal()>"Use this DNS provider"</button>
        </form>
    }
}

/// The AWS network's routes, one per line, replaced as a whole; none into the cluster's own
/// `network`.
#[component]
fn RoutesForm(
    org: Uuid,
    cluster: Uuid,
    network: Option<String>,
    routes: Vec<Route>,
) -> impl IntoView {
    let api = use_api();
    let permitted = Permitted::new(RolePermission::Admin, "change a cluster's routing table");
    let lines = RwSignal::new(
        routes
            .iter()
            .map(Route::line)
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let form = Form::new(
        move |request: ClusterRoutingTableRequest| async move {
            api.edit_cluster_routing_table(org, cluster, request).await
        },
        move |kept: Vec<Route>| match kept.len() {
            0 => "The routing table is empty; the next deployment applies it.".to_string(),
            count => format!("{count} routes kept; the next deployment applies them."),
        },
    );
    let errors = form.errors;
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let request = ClusterRoutingTableRequest {
            routes: lines_of(lines)
                .iter()
                .map(|line| Route::from_line(line))
                .collect(),
        };
        let checked = request.validate_beside(network.as_deref());
        form.submit(request, checked);
    };
    view! {
        <h3>"Routing table"</h3>
        <p class="muted">"Where the cluster's network sends traffic beyond itself: a peered network, a transit gateway, a VPN. The next deployment of the cluster applies it."</p>
        <form novalidate aria-label="Change the routing table" on:submit=submit>
            <LinesField label="Routes" name="routes" value=lines errors
                placeholder="10.1.0.0/16 pcx-0a1b2c3d billing VPC"
                hint="One per line: the destination range, the gateway or connection id, a description."/>
            <p class="actions__refusal">{move || permitted.refusal()}</p>
            <button type="submit" class="button button--secondary"
                disabled=move || form.pending() || permitted.refusal().is_some()
                title=move || permitted.refusal()>"Save the routes"</button>
        </form>
    }
}
