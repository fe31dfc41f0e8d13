//! The kinds of service (spec 2.1): how each is named, addressed and shown.

wire_enum!(
    /// Kind of service a record is (spec 2.1).
    ServiceType {
        Application = "APPLICATION" => "Application",
        Container = "CONTAINER" => "Container",
        Database = "DATABASE" => "Database",
        Job = "JOB" => "Job",
        Helm = "HELM" => "Helm chart",
        Terraform = "TERRAFORM" => "Terraform",
    }
);

impl ServiceType {
    pub fn default_icon_uri(self) -> String {
        format!("app://platform-console/{}", self.path_segment())
    }

    /// Whether the platform restarts a running service of this kind in place
    /// (`/{kind}/{id}/restart-service`); the others are redeployed.
    pub fn restarts(self) -> bool {
        matches!(
            self,
            ServiceType::Application | ServiceType::Container | ServiceType::Database
        )
    }

    /// Whether the platform stops a service of this kind (`/{kind}/{id}/stop`): a terraform
    /// service is applied or destroyed, never stopped.
    pub fn stops(self) -> bool {
        self != ServiceType::Terraform
    }

    /// Whether the platform gives a service of this kind its own status route
    /// (`/{kind}/{id}/status`); a terraform service's status is in its environment's.
    pub fn has_own_status(self) -> bool {
        self != ServiceType::Terraform
    }

    /// Whether the platform gives the addresses a service of this kind is reached at
    /// (`/{kind}/{id}/link`).
    pub fn has_links(self) -> bool {
        matches!(
            self,
            ServiceType::Application | ServiceType::Container | ServiceType::Helm
        )
    }

    /// Whether the service runs instances of its own whose metrics, logs and events its
    /// cluster holds (a job's are its runs); a Helm chart's and Terraform's are not its own.
    pub fn has_instances(self) -> bool {
        matches!(
            self,
            ServiceType::Application
                | ServiceType::Container
                | ServiceType::Database
                | ServiceType::Job
        )
    }

    /// Whether the platform gives what the running instances of this kind print
    /// (`/{kind}/{id}/log`).
    pub fn has_instance_log(self) -> bool {
        matches!(self, ServiceType::Application | ServiceType::Container)
    }

    /// The first segment of the kind's routes: `/application/{id}`, `/helm/{id}/deploy`, and of
    /// its collection under an environment.
    pub fn path_segment(self) -> &'static str {
        match self {
            ServiceType::Application => "application",
            ServiceType::Container => "container",
            ServiceType::Database => "database",
            ServiceType::Job => "job",
            ServiceType::Helm => "helm",
            ServiceType::Terraform => "terraform",
            // A kind this version does not know is listed, never addressed.
            ServiceType::Other(value) => value,
        }
    }

    /// Where an environment's services of the kind are listed and created:
    /// `/environment/{environment_id}/application`.
    pub fn collection_path(self, environment_id: uuid::Uuid) -> String {
        format!("/environment/{environment_id}/{}", self.path_segment())
    }

    /// A service of the kind: `/application/{id}`; its actions are below it.
    pub fn item_path(self, id: uuid::Uuid) -> String {
        format!("/{}/{id}", self.path_segment())
    }

    /// `collection_path` as a route template: `/environment/{environment_id}/application`.
    pub fn collection_template(self) -> String {
        format!("/environment/{{environment_id}}/{}", self.path_segment())
    }

    /// `item_path` as a route template: `/application/{application_id}`.
    pub fn item_template(self) -> String {
        let segment = self.path_segment();
        format!("/{segment}/{{{segment}_id}}")
    }
}
