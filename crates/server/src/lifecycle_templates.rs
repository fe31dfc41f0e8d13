//! The lifecycle job templates this server offers, per cloud: Terraform for every cloud with a
//! catalogue, CloudFormation on AWS, Kubernetes manifests on premise. They are this server's
//! own (their `sourceUrl` says so); each Dockerfile builds the job's repository, whose
//! configuration the job applies when its environment starts and removes when it is deleted.

use platform_api::{
    CloudProvider, LifecycleTemplate, LifecycleTemplateEvent, LifecycleTemplateFile,
    LifecycleTemplateResources, LifecycleTemplateVariable, WireEnum,
};
use uuid::Uuid;

/// The namespace of the templates' ids: each id is stable across restarts and servers.
const IDS: Uuid = Uuid::from_u128(0x6c1f_6a0e_5d3b_4b8e_9f1a_2c7d_0e4b_8a31);

/// The templates a job of an environment on `cloud` may start from.
pub fn for_cloud(cloud: CloudProvider) -> Vec<LifecycleTemplate> {
    let mut templates = Vec::new();
    if cloud.regions().is_some() {
        templates.push(terraform(cloud));
    }
    match cloud {
        CloudProvider::Aws => templates.push(cloudformation()),
        CloudProvider::OnPremise => templates.push(manifests()),
        _ => {}
    }
    templates
}

fn template(cloud: CloudProvider, slug: &str) -> (Uuid, String) {
    let key = format!("{}/{slug}", cloud.as_str());
    (
        Uuid::new_v5(&IDS, key.as_bytes()),
        format!("urn:platform-server:lifecycle-template:{key}"),
    )
}

/// `start` and `delete`, each the entrypoint's argument: the script says what each does.
fn start_and_delete() -> Vec<LifecycleTemplateEvent> {
    ["start", "delete"]
        .into_iter()
        .map(|name| LifecycleTemplateEvent {
            name: name.to_string(),
            entrypoint: None,
            command: vec![name.to_string()],
        })
        .collect()
}

fn variable(
    name: &str,
    description: &str,
    default: &str,
    is_secret: bool,
) -> LifecycleTemplateVariable {
    LifecycleTemplateVariable {
        name: name.to_string(),
        description: description.to_string(),
        default: default.to_string(),
        is_secret,
        file: None,
    }
}

/// The cloud's credentials, as its Terraform provider and command line read them.
fn credentials(cloud: CloudProvider) -> Vec<LifecycleTemplateVariable> {
    match cloud {
        CloudProvider::Aws => vec![
            variable(
                "AWS_ACCESS_KEY_ID",
                "The access key the job acts with",
                "",
                false,
            ),
            variable("AWS_SECRET_ACCESS_KEY", "Its secret key", "", true),
            variable(
                "AWS_DEFAULT_REGION",
                "The region the resources are made in",
                "eu-west-3",
                false,
            ),
        ],
        _ => vec![LifecycleTemplateVariable {
            file: Some(LifecycleTemplateFile {
                path: "/data/credentials.json".to_string(),
                enable_interpolation: false,
            }),
            ..variable(
                "CLOUD_CREDENTIALS",
                "The cloud account's credentials file, as its Terraform provider reads it",
                "{}",
                true,
            )
        }],
    }
}

fn terraform(cloud: CloudProvider) -> LifecycleTemplate {
    let (id, source_url) = template(cloud, "terraform");
    let mut variables = credentials(cloud);
    variables.extend([
        variable(
            "STATE_NAME",
            "The name the configuration's state is kept under in the cluster",
            "lifecycle",
            false,
        ),
        LifecycleTemplateVariable {
            file: Some(LifecycleTemplateFile {
                path: "/data/input.tfvars".to_string(),
                enable_interpolation: false,
            }),
            ..variable(
                "TF_INPUT",
                "The Terraform variables given to the configuration, one per line",
                "# name = \"value\"",
                false,
            )
        },
    ]);
    LifecycleTemplate {
        id,
        name: "Terraform".to_string(),
        description: format!(
            "Applies the repository's Terraform configuration on {} when the environment starts, and destroys what it made when the environment is deleted; its state is kept in the cluster.",
            cloud.label()
        ),
        source_url,
        cloud_provider: cloud,
        events: start_and_delete(),
        max_duration_in_sec: 1800,
        resources: LifecycleTemplateResources {
            cpu_milli: 500,
            ram_mib: 512,
        },
        variables,
        dockerfile: TERRAFORM_DOCKERFILE.to_string(),
    }
}

fn cloudformation() -> LifecycleTemplate {
    let (id, source_url) = template(CloudProvider::Aws, "cloudformation");
    let mut variables = credentials(CloudProvider::Aws);
    variables.extend([
        variable("STACK_NAME", "The stack's name", "environment-stack", false),
        variable(
            "STACK_TEMPLATE",
            "The stack's template, as a path in the repository",
            "cloudformation/stack.yaml",
            false,
        ),
    ]);
    LifecycleTemplate {
        id,
        name: "CloudFormation".to_string(),
        description: "Deploys the repository's CloudFormation stack when the environment starts, and deletes the stack when the environment is deleted.".to_string(),
        source_url,
        cloud_provider: CloudProvider::Aws,
        events: start_and_delete(),
        max_duration_in_sec: 1800,
        resources: LifecycleTemplateResources {
            cpu_milli: 250,
            ram_mib: 256,
        },
        variables,
        dockerfile: CLOUDFORMATION_DOCKERFILE.to_string(),
    }
}

fn manifests() -> LifecycleTemplate {
    let (id, source_url) = template(CloudProvider::OnPremise, "manifests");
    LifecycleTemplate {
        id,
        name: "Kubernetes manifests".to_string(),
        description: "Applies the repository's Kubernetes manifests in the environment's namespace when it starts, and deletes them when the environment is deleted.".to_string(),
        source_url,
        cloud_provider: CloudProvider::OnPremise,
        events: start_and_delete(),
        max_duration_in_sec: 600,
        resources: LifecycleTemplateResources {
            cpu_milli: 250,
            ram_mib: 256,
        },
        variables: vec![variable(
            "MANIFESTS",
            "The folder of the repository holding the manifests",
            "manifests",
            false,
        )],
        dockerfile: MANIFESTS_DOCKERFILE.to_string(),
    }
}

const TERRAFORM_DOCKERFILE: &str = r#"FROM hashicorp/terraform:1.9
WORKDIR /data
COPY . .
RUN cat > /entrypoint.sh <<'EOF'
#!/bin/sh
set -e
terraform init -input=false -backend-config="secret_suffix=$STATE_NAME"
case "$1" in
  start) terraform apply -input=false -auto-approve -var-file=/data/input.tfvars ;;
  delete) terraform destroy -input=false -auto-approve -var-file=/data/input.tfvars ;;
  *) echo "unknown event: $1" >&2; exit 1 ;;
esac
EOF
RUN chmod +x /entrypoint.sh
ENTRYPOINT ["/entrypoint.sh"]
"#;

const CLOUDFORMATION_DOCKERFILE: &str = r#"FROM amazon/aws-cli:2.17.0
WORKDIR /data
COPY . .
RUN cat > /entrypoint.sh <<'EOF'
#!/bin/sh
set -e
case "$1" in
  start) aws cloudformation deploy --stack-name "$STACK_NAME" --template-file "$STACK_TEMPLATE" ;;
  delete) aws cloudformation delete-stack --stack-name "$STACK_NAME" && aws cloudformation wait stack-delete-complete --stack-name "$STACK_NAME" ;;
  *) echo "unknown event: $1" >&2; exit 1 ;;
esac
EOF
RUN chmod +x /entrypoint.sh
ENTRYPOINT ["/entrypoint.sh"]
"#;

const MANIFESTS_DOCKERFILE: &str = r#"FROM bitnami/kubectl:1.31
WORKDIR /data
COPY . .
ENTRYPOINT ["/bin/sh", "-c", "case \"$0\" in start) kubectl apply -f \"$MANIFESTS\" ;; delete) kubectl delete --ignore-not-found -f \"$MANIFESTS\" ;; *) exit 1 ;; esac"]
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cloud_has_its_templates_each_with_a_dockerfile_a_job_may_carry() {
        let aws = for_cloud(CloudProvider::Aws);
        assert_eq!(
            aws.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            ["Terraform", "CloudFormation"]
        );
        assert_eq!(for_cloud(CloudProvider::OnPremise).len(), 1);
        assert!(for_cloud(CloudProvider::Civo).is_empty());
        let every: Vec<LifecycleTemplate> = CloudProvider::ALL
            .iter()
            .flat_map(|cloud| for_cloud(*cloud))
            .collect();
        for template in &every {
            assert!(platform_api::dockerfile_base(&template.dockerfile).is_some());
            assert!(template.schedule().on_start.is_some(), "{}", template.name);
        }
        let mut ids: Vec<Uuid> = every.iter().map(|t| t.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), every.len(), "ids are unique");
    }
}
