# How the console's groups of pages are packed into files (crates/bundle-split), sourced by
# scripts/build-wasm.sh and scripts/wasm-size.sh: the group every signed-in page loads, and the
# frames (src/app.rs's service and environment layouts) whose tabs (and, for the service, the
# deploy review and the overview's cards opened there) are the groups named after them, which
# leave what they share with the frame to the frame's file.
every_signed_in_page=shell
frames=(service:service_overview,logs,monitoring,service_settings,advanced,variables,review,overview_cards environment:environment_settings,environment_deployments)
