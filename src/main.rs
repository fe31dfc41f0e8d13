fn main() {
    console_error_panic_hook::set_once();
    // A platform newer than this console may send values it does not know: shown as they are.
    platform_api::accept_unknown_values();
    leptos::mount::mount_to_body(console::app::App);
}
