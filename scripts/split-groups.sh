# How the console's groups of pages are packed into files (crates/bundle-split), sourced by
# scripts/build-wasm.sh and scripts/wasm-size.sh: the group every signed-in page loads, and the
# frames (src/app.rs's service and environment layouts) whose tabs (and, for the service, the
# deploy review, the overview's cards and the monitoring's preset form opened there) are the
# groups named after them, which
# leave what they share with the frame to the frame's file.
every_signed_in_page=shell
# The groups no page is made of alone, fetched when opened within one: the command palette, the
# deploy review, the overview's cards, embed mode's bridge, what is unwell, the clone forms, the
# variables' text forms, the monitoring's preset form, and each kind's form (within a service's
# settings or the new-service dialog); and the identity provider's round trip, whose pages
# fetch the shell's file with their own (the signed-in pages after it need it anyway). The code
# every other group needs is in the shell's file, fetched once, rather than a copy in each
# group's.
on_demand=palette,review,overview_cards,embed,unwell,clone,variables_text,alert_form,application_form,container_form,database_form,job_form,helm_form,terraform_form,sign_in_provider
frames=(service:service_overview,service_deployments,logs,monitoring,service_settings,application_form,container_form,database_form,job_form,helm_form,terraform_form,advanced,variables,review,overview_cards,alert_form environment:environment_services,environment_settings,environment_deployments)
