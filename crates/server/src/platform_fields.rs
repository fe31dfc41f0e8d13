//! Request fields of the production platform's API document that this server leaves alone: a
//! client written against the platform may send them, so they are accepted and ignored, while any
//! other field a request does not know is refused (`error::read_known`). The contract test sends
//! every shared write with every field the document names, so this list cannot fall behind.

/// Each such field by the end of its path (`git_repository.owner` stands for it wherever a git
/// repository is given). What the reference server has no machinery for: cloud and cluster
/// sizing, groups and autoscaling of the kinds that do not run instances (jobs, helm, terraform), a
/// scaler's trigger authentication (its own resource in the platform), CPU architectures, secret managers, blueprints, icons
/// chosen by the caller, helm ports, a job's port, build variants,
/// and the deploy options it does not run (a chart version or values commit per deployment, a
/// terraform deployment's id, read by `DeployRequest`).
const LEFT_ALONE: &[&str] = &[
    // Services.
    "annotations_groups",
    "labels_groups",
    "autoscaling",
    "trigger_authentication",
    "cpu_architecture",
    "ephemeral_storage_in_gib",
    "icon_uri",
    "blueprint_id",
    "instance_type",
    "disk_type",
    "port",
    "ports",
    "values_override.set_json",
    "values_override.set_string",
    "docker_target_build_stage",
    "git_repository.owner",
    "git_repository.name",
    // Deploys. An environment's cancel stops every action of its services: always forced.
    "force_cancel",
    "chart_version",
    "values_override_git_commit_id",
    // Variables.
    "enable_interpolation_in_file",
    "secret_manager_access_id",
    // Organizations: their pictures, site and administrators are the vendor's sign-up flow's.
    "website_url",
    "repository",
    "logo_url",
    "icon_url",
    "admin_emails",
    // Clusters.
    "cloud_provider_credentials",
    "disk_iops",
    "disk_size",
    "disk_throughput",
    "features",
    "infrastructure_charts_parameters",
    "keda",
    "kubernetes",
    "max_running_nodes",
    "metrics_parameters",
    "min_running_nodes",
    "secret_manager_accesses",
    "ssh_keys",
    // Registries.
    "config.project_id",
    "config.provider_e_credentials_type",
    "config.service_account_email",
    "config.token_lifetime_seconds",
    "config.workload_identity_provider_resource",
];

/// Whether the field at `path` (`a.b.0.c`, as serde_ignored writes it: `?` for an optional
/// value, a number for an item) is one of them.
pub fn left_alone(path: &str) -> bool {
    let named: Vec<&str> = path
        .split('.')
        .filter(|segment| *segment != "?" && !segment.chars().all(|c| c.is_ascii_digit()))
        .collect();
    let named = named.join(".");
    LEFT_ALONE
        .iter()
        .any(|field| named == *field || named.ends_with(&format!(".{field}")))
}

#[cfg(test)]
mod tests {
    use super::left_alone;

    #[test]
    fn fields_are_matched_by_the_end_of_their_path() {
        assert!(left_alone("cpu_architecture"));
        assert!(left_alone("autoscaling.?.scalers.0.trigger_authentication"));
        assert!(left_alone("source.docker.?.git_repository.owner"));
        assert!(!left_alone("name"));
        assert!(!left_alone("field_nobody_knows"));
        assert!(!left_alone("git_repository.url_typo"));
    }
}
