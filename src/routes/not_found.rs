use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <main class="page page--narrow">
            <h1>"Page not found"</h1>
            <p>"This address is not a page of the console."</p>
            <A href="/">"Go to your organization"</A>
        </main>
    }
}
