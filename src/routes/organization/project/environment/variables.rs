//! `.../environment/:env/variables`: the variables and secrets every service of the environment
//! sees from it (its own and its project's), defined here or above.

use leptos::prelude::*;
use platform_api::VariableScope;

use crate::routes::organization::project::variables::{Level, Variables};

use super::layout::use_environment_page;

#[component]
pub fn EnvironmentVariables() -> impl IntoView {
    let page = use_environment_page();
    let name = Signal::derive(move || {
        page.record
            .get()
            .and_then(Result::ok)
            .map_or_else(|| "variables".to_string(), |record| record.name)
    });
    move || {
        let ids = page.ids.get()?;
        let own = Level {
            scope: VariableScope::Environment,
            parent: ids.environment,
        };
        let levels = vec![
            (own, "This environment (every service)"),
            (
                Level {
                    scope: VariableScope::Project,
                    parent: ids.project,
                },
                "Its project (every environment)",
            ),
        ];
        Some(view! {
            <Variables own levels name on_changed=Callback::new(|()| ())
                lead="What every service of this environment sees from it; a service's own value overrides it. Changes take effect at each service's next deployment."/>
        })
    }
}
