//! A cluster's kubeconfig (`GET|PUT /organization/{id}/cluster/{id}/kubeconfig`): the rules one
//! given for a self-managed cluster must meet, and the one the reference server writes for a
//! cluster it simulates (no cluster answers at its address: the host is under `.invalid`).

use uuid::Uuid;

use crate::error::FieldError;

/// The longest kubeconfig kept: far above a real one (a few kilobytes, certificates included).
pub const KUBECONFIG_MAX_BYTES: usize = 64 * 1024;

/// The top-level keys a kubeconfig holds, as `kubectl` reads one.
const REQUIRED_LINES: [&str; 3] = ["apiVersion: v1", "kind: Config", "clusters:"];

/// Checks a kubeconfig given as YAML: not too long, and a `Config` of `v1` with its clusters
/// (each key read at the top level, in one pass over the lines).
pub fn check_kubeconfig(text: &str) -> Result<(), FieldError> {
    let problem = |message: String| Err(FieldError::new("body", message));
    if text.len() > KUBECONFIG_MAX_BYTES {
        return problem(format!(
            "must be at most {} KiB",
            KUBECONFIG_MAX_BYTES / 1024
        ));
    }
    let top_level: Vec<&str> = text
        .lines()
        .filter(|line| !line.starts_with([' ', '\t', '#', '-']))
        .map(str::trim_end)
        .collect();
    let missing: Vec<&str> = REQUIRED_LINES
        .iter()
        .copied()
        .filter(|required| !top_level.iter().any(|line| line.starts_with(required)))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        problem(format!(
            "must be a kubeconfig (YAML) with the top-level lines {}",
            missing
                .iter()
                .map(|line| format!("`{line}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

/// How the user of a written kubeconfig signs in.
pub enum KubeconfigUser<'a> {
    /// With a token of its own.
    Token(&'a str),
    /// With a command run at each use, which asks the platform for a token (read-only: one
    /// that may only read).
    Command { read_only: bool },
}

/// The kubeconfig of a cluster the reference server simulates.
pub fn simulated_kubeconfig(cluster_id: Uuid, cluster_name: &str, user: KubeconfigUser) -> String {
    let context = format!("cluster-{}", cluster_id.simple());
    let user = match user {
        KubeconfigUser::Token(token) => format!("    token: {token}\n"),
        KubeconfigUser::Command { read_only } => {
            let mut args = vec![
                "cluster".to_string(),
                "token".to_string(),
                "--cluster".to_string(),
                cluster_id.to_string(),
            ];
            if read_only {
                args.push("--read-only".to_string());
            }
            let args: String = args.iter().map(|arg| format!("      - {arg}\n")).collect();
            format!(
                "    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: platform\n      args:\n{args}"
            )
        }
    };
    format!(
        "apiVersion: v1\nkind: Config\n# {cluster_name}: simulated by the reference server; nothing answers at this address.\nclusters:\n- name: {context}\n  cluster:\n    server: https://{}.clusters.platform.invalid\ncontexts:\n- name: {context}\n  context:\n    cluster: {context}\n    user: {context}\ncurrent-context: {context}\nusers:\n- name: {context}\n  user:\n{user}",
        cluster_id.simple()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_kubeconfig_meets_the_rules_and_others_are_named() {
        let id = Uuid::nil();
        for user in [
            KubeconfigUser::Token("t0k3n"),
            KubeconfigUser::Command { read_only: true },
        ] {
            let written = simulated_kubeconfig(id, "production", user);
            assert_eq!(check_kubeconfig(&written), Ok(()), "{written}");
        }
        let refused = check_kubeconfig("apiVersion: v1\nclusters: []\n").unwrap_err();
        assert_eq!(refused.field, "body");
        assert!(
            refused.message.contains("`kind: Config`"),
            "{}",
            refused.message
        );
        assert!(check_kubeconfig(&"#".repeat(KUBECONFIG_MAX_BYTES + 1)).is_err());
    }
}
