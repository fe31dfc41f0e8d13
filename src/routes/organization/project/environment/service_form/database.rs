//! A database's form: its type, version and mode (chosen once, when it is created), where it can
//! be reached from, and its resources: a managed database on a cloud that lists instances is
//! sized by the instance chosen among them, others by cpu and memory.

use leptos::prelude::*;
use platform_api::{
    CloudProvider, DatabaseAccessibility, DatabaseConfiguration, DatabaseMode, DatabaseRequest,
    DatabaseType, WireEnum,
};
use uuid::Uuid;

use crate::api::use_api;
use crate::components::form::{Form, Numbers, SubmitButton};
use crate::components::form_field::{optional_text, EnumSelect, TextField};
use crate::state::resource::resource;

/// A new database's request: PostgreSQL 16 in the cluster, private.
pub fn new_database() -> DatabaseRequest {
    DatabaseRequest {
        name: String::new(),
        description: None,
        database_type: DatabaseType::Postgresql,
        version: "16".into(),
        mode: DatabaseMode::Container,
        accessibility: DatabaseAccessibility::Private,
        instance_type: None,
        cpu: 250,
        memory: 256,
        storage: 10,
    }
}

/// What the form is for: a new database of an environment, or an existing database and its
/// environment.
#[derive(Clone, Copy)]
pub enum DatabaseTarget {
    New(Uuid),
    Existing { database: Uuid, environment: Uuid },
}

impl DatabaseTarget {
    fn environment(self) -> Uuid {
        match self {
            DatabaseTarget::New(environment) | DatabaseTarget::Existing { environment, .. } => {
                environment
            }
        }
    }
}

/// The cloud of the environment's cluster, its region, and the types it manages.
#[derive(Clone)]
struct Cloud {
    provider: Option<CloudProvider>,
    region: Option<String>,
    managed: Vec<DatabaseType>,
}

impl Cloud {
    /// What the cloud manages, said beside the mode.
    fn manages(&self) -> String {
        let cloud = self
            .provider
            .map_or("The cluster's cloud", CloudProvider::label);
        if self.managed.is_empty() {
            return format!("{cloud} manages no database: run it in the cluster.");
        }
        let types: Vec<&str> = self.managed.iter().map(|t| t.label()).collect();
        format!("{cloud} manages {}.", types.join(", "))
    }
}

/// The versions the platform listed.
#[derive(Clone)]
enum Listed {
    Configured(Vec<DatabaseConfiguration>),
    Eligible(Vec<String>),
}

#[component]
pub fn DatabaseForm(
    initial: DatabaseRequest,
    form: Form<DatabaseRequest>,
    /// Its type and mode can be chosen only for a new database.
    target: DatabaseTarget,
    submit_label: &'static str,
    purpose: &'static str,
) -> impl IntoView {
    let errors = form.errors;
    let creating = matches!(target, DatabaseTarget::New(_));
    let name = RwSignal::new(initial.name.clone());
    let description = RwSignal::new(initial.description.clone().unwrap_or_default());
    let database_type = RwSignal::new(initial.database_type);
    let version = RwSignal::new(initial.version.clone());
    let mode = RwSignal::new(initial.mode);
    let accessibility = RwSignal::new(initial.accessibility);
    let cpu = RwSignal::new(initial.cpu.to_string());
    let memory = RwSignal::new(initial.memory.to_string());
    let storage = RwSignal::new(initial.storage.to_string());
    let instance_type = RwSignal::new(initial.instance_type.clone().unwrap_or_default());
    // The versions it may run, as the platform lists them: for a new database those of the
    // environment's configuration in the type and mode chosen, for an existing one those it may
    // go to; else those its type runs (the rule this console checks).
    let api = use_api();
    let listed = resource(move || async move {
        match target {
            DatabaseTarget::New(environment) => api
                .database_configurations(environment)
                .await
                .ok()
                .map(Listed::Configured),
            DatabaseTarget::Existing { database, .. } => api
                .database_versions(database)
                .await
                .ok()
                .map(Listed::Eligible),
        }
    });
    let cloud = resource(move || async move {
        let environment = api.environment(target.environment()).await.ok()?;
        let provider = environment.cloud_provider.cloud();
        let managed = match provider {
            Some(provider) => api.managed_database_types(provider).await.ok()?,
            None => Vec::new(),
        };
        Some(Cloud {
            provider,
            region: environment.cloud_provider.cluster,
            managed,
        })
    });
    // The instances a managed database of the chosen type may run on, where its cloud lists
    // them: it is then sized by the instance, not by cpu and memory.
    let instances = resource(move || {
        let (mode, database_type) = (mode.get(), database_type.get());
        let cloud = cloud.get().flatten();
        async move {
            let cloud = cloud.filter(|_| mode == DatabaseMode::Managed)?;
            let (provider, region) = (cloud.provider?, cloud.region?);
            api.managed_database_instance_types(provider, &region, database_type)
                .await
                .ok()
                .flatten()
        }
    });
    let sized_by_instance = move || instances.get().flatten().is_some();
    let instance_names = Signal::derive(move || instances.get().flatten().unwrap_or_default());
    let versions = Signal::derive(move || -> Vec<String> {
        let (database_type, mode) = (database_type.get(), mode.get());
        match listed.get().flatten() {
            Some(Listed::Eligible(versions)) => versions,
            Some(Listed::Configured(listed)) => {
                DatabaseConfiguration::versions_of(&listed, database_type, mode)
            }
            None => database_type
                .versions()
                .iter()
                .map(|version| version.to_string())
                .collect(),
        }
    });
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let mut numbers = Numbers::default();
        let request = DatabaseRequest {
            name: name.get_untracked().trim().to_string(),
            description: optional_text(description),
            database_type: database_type.get_untracked(),
            version: version.get_untracked().trim().to_string(),
            mode: mode.get_untracked(),
            accessibility: accessibility.get_untracked(),
            instance_type: instances
                .get_untracked()
                .flatten()
                .map(|_| instance_type.get_untracked().trim().to_string())
                .filter(|name| !name.is_empty()),
            cpu: numbers.read("cpu", &cpu.get_untracked()),
            memory: numbers.read("memory", &memory.get_untracked()),
            storage: numbers.read("storage", &storage.get_untracked()),
        };
        let placed = cloud.get_untracked().flatten().map(|cloud| cloud.provider);
        let checked = numbers.and_rules(request.validate().and_then(|()| match placed {
            Some(provider) => request.validate_on(provider),
            None => Ok(()),
        }));
        form.submit(request, checked);
    };
    let chosen_once = format!(
        "{} · {} (the type and mode are chosen once, at creation)",
        initial.database_type.label(),
        initial.mode.label()
    );
    view! {
        <form on:submit=submit novalidate aria-label=purpose>
            {(!creating).then(|| view! { <p class="muted">{chosen_once}</p> })}
            <div class="form-grid">
                <TextField label="Name" name="name" value=name errors required=true placeholder="orders-db"/>
                <TextField label="Description" name="description" value=description errors/>
                {creating.then(|| view! {
                    <EnumSelect label="Type" name="type" value=database_type errors/>
                    <EnumSelect label="Mode" name="mode" value=mode errors/>
                })}
                {move || (creating && mode.get() == DatabaseMode::Managed)
                    .then(|| cloud.get().flatten())
                    .flatten()
                    .map(|cloud| view! { <p class="muted">{cloud.manages()}</p> })}
                <TextField label="Version" name="version" value=version errors required=true
                    placeholder="16" hint="One of the versions its type runs; never an older one than it runs."
                    suggestions=versions/>
                <EnumSelect label="Reachable from" name="accessibility" value=accessibility errors/>
                {move || sized_by_instance().then(|| view! {
                    <TextField label="Instance type" name="instance_type" value=instance_type errors
                        required=true hint="Its cloud's instance: the database's CPU and memory are the instance's."
                        suggestions=instance_names/>
                })}
                {move || (!sized_by_instance()).then(|| view! {
                    <TextField label="CPU (milli-CPU)" name="cpu" value=cpu errors input_type="number"/>
                    <TextField label="Memory (MiB)" name="memory" value=memory errors input_type="number"/>
                })}
                <TextField label="Storage (GiB)" name="storage" value=storage errors input_type="number"/>
            </div>
            <SubmitButton form label=submit_label/>
        </form>
    }
}
