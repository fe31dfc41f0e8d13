//! A cluster's kubeconfig (`GET|PUT /organization/{id}/cluster/{id}/kubeconfig`): the rules one
//! given for a self-managed cluster must meet, and the one the reference server writes for a
//! cluster it simulates (no cluster answers at its address: the host is under `.invalid`).

use uuid::Uuid;

#[cfg(feature = "kubeconfig-check")]
use crate::error::FieldError;

/// The longest kubeconfig kept: far above a real one (a few kilobytes, certificates included).
pub const KUBECONFIG_MAX_BYTES: usize = 64 * 1024;

/// The deepest a kubeconfig nests: far above a real one (five levels).
pub const KUBECONFIG_MAX_DEPTH: usize = 64;

/// Checks a kubeconfig given as YAML: not too long nor too deep, and read as YAML (its aliases expanded
/// within the parser's own bounds on depth and repetition, so that a few lines of aliases never
/// become gigabytes) into a `Config` of `v1` with at least one cluster, each named with a server
/// address, as `kubectl` reads one. The server's: the console never checks one.
#[cfg(feature = "kubeconfig-check")]
pub fn check_kubeconfig(text: &str) -> Result<(), FieldError> {
    use serde_yaml::Value;
    let problem = |message: &str| Err(FieldError::new("body", message));
    if text.len() > KUBECONFIG_MAX_BYTES {
        return Err(FieldError::new(
            "body",
            format!("must be at most {} KiB", KUBECONFIG_MAX_BYTES / 1024),
        ));
    }
    if yaml_depth(text) > KUBECONFIG_MAX_DEPTH {
        return Err(FieldError::new(
            "body",
            format!("must nest at most {KUBECONFIG_MAX_DEPTH} levels (blocks and brackets within one another)"),
        ));
    }
    let Ok(config) = serde_yaml::from_str::<Value>(text) else {
        return problem(
            "must be a kubeconfig in YAML: it does not read as YAML within the reader's bounds \
             (its aliases expanded within a bound)",
        );
    };
    if config.get("apiVersion").and_then(Value::as_str) != Some("v1") {
        return problem("must be a kubeconfig: `apiVersion: v1` is missing");
    }
    if config.get("kind").and_then(Value::as_str) != Some("Config") {
        return problem("must be a kubeconfig: `kind: Config` is missing");
    }
    let clusters = config.get("clusters").and_then(Value::as_sequence);
    let Some(clusters) = clusters.filter(|clusters| !clusters.is_empty()) else {
        return problem("must be a kubeconfig: it lists no `clusters`");
    };
    let named_with_server = |entry: &Value| {
        entry.get("name").and_then(Value::as_str).is_some()
            && entry
                .get("cluster")
                .and_then(|cluster| cluster.get("server"))
                .and_then(Value::as_str)
                .is_some()
    };
    if !clusters.iter().all(named_with_server) {
        return problem(
            "must be a kubeconfig: each of its `clusters` needs a `name` and a `cluster.server`",
        );
    }
    Ok(())
}

/// How deep a YAML text nests, counted in one pass before YAML's reader sees it: the reader
/// bounds its own recursion (128 levels), but it checks each flow collection's keys against every
/// level open, so that 30,000 `[` take it seconds (quadratic). The count errs high: a bracket in a
/// plain scalar counts, a comment's and a quoted scalar's do not.
#[cfg(feature = "kubeconfig-check")]
/// An upper bound of `text`'s nesting: the block levels open (by indentation, and each `- ` or
/// `? ` that starts a nested one on the same line) plus the flow collections open.
fn yaml_depth(text: &str) -> usize {
    let (mut indents, mut flows, mut deepest) = (Vec::<usize>::new(), 0usize, 0usize);
    for line in text.lines() {
        let content = line.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let indent = line.len() - content.len();
        while indents.last().is_some_and(|open| *open >= indent) {
            indents.pop();
        }
        indents.push(indent);
        // `- - - a`: each marker opens a block within the one before.
        let markers = content
            .split(' ')
            .take_while(|word| matches!(*word, "-" | "?" | ""))
            .filter(|word| !word.is_empty())
            .count();
        let mut quote = None;
        for c in content.chars() {
            match (quote, c) {
                (None, '#') => break,
                (None, '"' | '\'') => quote = Some(c),
                (Some(open), c) if c == open => quote = None,
                (None, '[' | '{') => flows += 1,
                (None, ']' | '}') => flows = flows.saturating_sub(1),
                _ => {}
            }
            deepest = deepest.max(indents.len() + markers + flows);
        }
    }
    deepest
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
    let cluster_name = crate::escape::yaml_string(cluster_name);
    format!(
        "apiVersion: v1\nkind: Config\n# {cluster_name}: simulated by the reference server; nothing answers at this address.\nclusters:\n- name: {context}\n  cluster:\n    server: https://{}.clusters.platform.invalid\ncontexts:\n- name: {context}\n  context:\n    cluster: {context}\n    user: {context}\ncurrent-context: {context}\nusers:\n- name: {context}\n  user:\n{user}",
        cluster_id.simple()
    )
}

#[cfg(all(test, feature = "kubeconfig-check"))]
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
        // Line starts are not enough: the values and the structure are read.
        for impostor in [
            "apiVersion: v1xyz\nkind: Config\nclusters:\n- name: a\n  cluster:\n    server: https://a\n",
            "apiVersion: v1\nkind: ConfigMap\nclusters:\n- name: a\n  cluster:\n    server: https://a\n",
            "apiVersion: v1\nkind: Config\nclusters: []\n",
            "apiVersion: v1\nkind: Config\nclusters:\n- name: a\n",
        ] {
            assert!(check_kubeconfig(impostor).is_err(), "{impostor}");
        }
        // Aliases of aliases, ten levels of ten: refused, not expanded to 10^10 strings.
        let mut bomb = String::from("apiVersion: v1\nkind: Config\na0: &a0 [lol]\n");
        for level in 1..10 {
            let previous = format!("*a{}", level - 1);
            let items = [previous.as_str(); 10].join(", ");
            bomb.push_str(&format!("a{level}: &a{level} [{items}]\n"));
        }
        bomb.push_str("clusters:\n- name: a\n  cluster:\n    server: https://a\n  extra: *a9\n");
        let refused = check_kubeconfig(&bomb).unwrap_err();
        assert!(refused.message.contains("YAML"), "{}", refused.message);
        // Nested past the bound: refused before YAML's reader takes it, naming the bound.
        let deep = format!(
            "apiVersion: v1\nkind: Config\nclusters: {}\n",
            "[".repeat(30_000)
        );
        let refused = check_kubeconfig(&deep).unwrap_err();
        assert!(refused.message.contains("64 levels"), "{}", refused.message);
    }

    #[test]
    fn blocks_and_flows_count_quotes_and_comments_do_not() {
        let kubeconfig =
            "apiVersion: v1\nclusters:\n- name: a\n  cluster:\n    server: https://a\n";
        assert!(yaml_depth(kubeconfig) <= 4, "{}", yaml_depth(kubeconfig));
        assert!(yaml_depth("a: \"[[[[[[[[\" # {{{{{{{\nb: '{{{{'\n") <= 2);
        assert!(yaml_depth(&format!("a: {}\n", "[".repeat(500))) >= 500);
        let blocks: String = (0..100).map(|n| format!("{}a:\n", " ".repeat(n))).collect();
        assert!(yaml_depth(&blocks) >= 100);
        assert!(yaml_depth(&format!("{}a\n", "- ".repeat(100))) >= 100);
    }
}
