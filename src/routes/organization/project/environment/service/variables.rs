//! `.../service/:service/variables`: the variables and secrets a service sees (its own, its
//! environment's, its project's and the built-in ones). Databases hold none of their own.

use leptos::prelude::*;
use platform_api::VariableScope;

use super::use_addressed_service;
use crate::api::ApiError;
use crate::components::empty_state::EmptyState;
use crate::routes::address::{EnvironmentAddress, ProjectAddress};
use crate::routes::current_id;
use crate::routes::organization::project::variables::{Level, Variables};
use crate::state::resource::resource;

#[component]
pub fn ServiceVariables() -> impl IntoView {
    let addressed = use_addressed_service();
    let (project, environment) = (
        current_id(|a: &ProjectAddress| a.project),
        current_id(|a: &EnvironmentAddress| a.env),
    );
    // The level of the service's own variables: none for a database.
    let own = resource(move || {
        let id = addressed.address();
        async move {
            let target = addressed.addressed(id).await?;
            let scope = VariableScope::of_service(target.kind);
            Ok::<_, ApiError>(scope.map(|scope| Level {
                scope,
                parent: target.id,
            }))
        }
    });
    let name = Signal::derive(move || {
        addressed.record.get().and_then(Result::ok).map_or_else(
            || "variables".to_string(),
            |record| record.name().to_string(),
        )
    });
    let changed = Callback::new(move |()| addressed.changed());
    move || {
        let (project, environment) = (project.get()?, environment.get()?);
        let view = match own.get()?.ok()? {
            Some(own) => {
                let levels = vec![
                    (own, "This service"),
                    (
                        Level {
                            scope: VariableScope::Environment,
                            parent: environment,
                        },
                        "Its environment (every service there)",
                    ),
                    (
                        Level {
                            scope: VariableScope::Project,
                            parent: project,
                        },
                        "Its project (every environment)",
                    ),
                ];
                view! {
                    <Variables own levels name on_changed=changed
                        lead="What the service sees when it runs; changes take effect at its next deployment."/>
                }
                .into_any()
            }
            None => view! {
                <section class="card">
                    <h2>"Variables and secrets"</h2>
                    <EmptyState title="Databases hold no variables"
                        hint="Their built-in variables (host, port, login, password) are seen by the other services of the environment."/>
                </section>
            }
            .into_any(),
        };
        Some(view)
    }
}
