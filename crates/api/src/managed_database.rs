//! The databases a cloud runs for its customers (a database in MANAGED mode): the types each
//! cloud manages (`GET /aws/managedDatabase/type`, `GET /scaleway/managedDatabase/type`) and,
//! where the document lists them (AWS), the instance types each type runs on
//! (`GET /aws/managedDatabase/instanceType/{region}/{databaseType}`). A managed database on
//! such a cloud is sized by its instance type, not by `cpu` and `memory`. The tables are the
//! reference server's, of real instance names and sizes; no cloud is asked.

use serde::{Deserialize, Serialize};

use crate::cloud::CloudProvider;
use crate::database::{DatabaseMode, DatabaseRequest, DatabaseType};
use crate::error::FieldError;
use crate::paths::{self, Template};
use crate::wire::WireEnum;

/// An entry of `GET /aws/managedDatabase/type`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ManagedDatabaseType {
    pub name: DatabaseType,
}

/// An entry of `GET /aws/managedDatabase/instanceType/{region}/{databaseType}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ManagedDatabaseInstanceType {
    pub name: String,
}

/// An instance a cloud runs a managed database on, and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ManagedInstance {
    pub name: &'static str,
    /// milli-CPU
    pub cpu: i64,
    /// MiB
    pub memory: i64,
}

const fn instance(name: &'static str, cpu: i64, memory: i64) -> ManagedInstance {
    ManagedInstance { name, cpu, memory }
}

/// Amazon RDS (PostgreSQL, MySQL).
const RDS: &[ManagedInstance] = &[
    instance("db.t3.micro", 2000, 1024),
    instance("db.t3.small", 2000, 2048),
    instance("db.t3.medium", 2000, 4096),
    instance("db.t3.large", 2000, 8192),
    instance("db.m6g.large", 2000, 8192),
    instance("db.m6g.xlarge", 4000, 16384),
    instance("db.r6g.large", 2000, 16384),
    instance("db.r6g.xlarge", 4000, 32768),
];

/// Amazon DocumentDB (MongoDB).
const DOCUMENT_DB: &[ManagedInstance] = &[
    instance("db.t3.medium", 2000, 4096),
    instance("db.r6g.large", 2000, 16384),
    instance("db.r6g.xlarge", 4000, 32768),
];

/// Amazon ElastiCache (Redis).
const ELASTICACHE: &[ManagedInstance] = &[
    instance("cache.t3.micro", 2000, 512),
    instance("cache.t3.small", 2000, 1403),
    instance("cache.t3.medium", 2000, 3164),
    instance("cache.m6g.large", 2000, 6533),
    instance("cache.r6g.large", 2000, 13384),
];

impl CloudProvider {
    /// The database types this cloud runs as managed databases.
    pub fn managed_database_types(self) -> &'static [DatabaseType] {
        match self {
            CloudProvider::Aws => &[
                DatabaseType::Postgresql,
                DatabaseType::Mysql,
                DatabaseType::Mongodb,
                DatabaseType::Redis,
            ],
            CloudProvider::ProviderA => &[DatabaseType::Postgresql, DatabaseType::Mysql],
            _ => &[],
        }
    }

    /// The instances a managed database of `database_type` runs on, for a cloud that lists
    /// them; `None` where its size is `cpu` and `memory`.
    pub fn managed_instances(
        self,
        database_type: DatabaseType,
    ) -> Option<&'static [ManagedInstance]> {
        match (self, database_type) {
            (CloudProvider::Aws, DatabaseType::Postgresql | DatabaseType::Mysql) => Some(RDS),
            (CloudProvider::Aws, DatabaseType::Mongodb) => Some(DOCUMENT_DB),
            (CloudProvider::Aws, DatabaseType::Redis) => Some(ELASTICACHE),
            _ => None,
        }
    }
}

/// Where the document lists the managed types of `provider`.
pub fn managed_database_types_path(provider: CloudProvider) -> Option<Template> {
    match provider {
        CloudProvider::Aws => Some(paths::AWS_MANAGED_DATABASE_TYPES),
        CloudProvider::ProviderA => Some(paths::PROVIDER_A_MANAGED_DATABASE_TYPES),
        _ => None,
    }
}

/// Where the document lists the managed instance types of `provider`, by region and type.
pub fn managed_instance_types_path(provider: CloudProvider) -> Option<Template> {
    match provider {
        CloudProvider::Aws => Some(paths::AWS_MANAGED_DATABASE_INSTANCE_TYPES),
        _ => None,
    }
}

impl DatabaseRequest {
    /// The rules of where it runs, on a cluster of `cloud` (`None`: a cloud this platform does
    /// not know): a managed database of a type the cloud manages, on one of its instance types
    /// where it lists them; a database in the cluster on none.
    pub fn validate_on(&self, cloud: Option<CloudProvider>) -> Result<(), Vec<FieldError>> {
        let instance_type = self.instance_type.as_deref();
        let Some(cloud) = cloud.filter(|_| self.mode == DatabaseMode::Managed) else {
            return match (self.mode, instance_type) {
                (DatabaseMode::Container, Some(_)) => Err(vec![FieldError::new(
                    "instance_type",
                    "is for a managed database: one in the cluster is sized by cpu and memory",
                )]),
                (DatabaseMode::Managed, _) => Err(vec![not_managed("the cluster's cloud")]),
                _ => Ok(()),
            };
        };
        if !cloud.managed_database_types().contains(&self.database_type) {
            return Err(vec![not_managed(cloud.label())]);
        }
        match (cloud.managed_instances(self.database_type), instance_type) {
            (None, None) => Ok(()),
            (None, Some(_)) => Err(vec![FieldError::new(
                "instance_type",
                format!(
                    "{} lists no instance type: its managed databases are sized by cpu and memory",
                    cloud.label()
                ),
            )]),
            (Some(listed), given)
                if given.is_none_or(|name| !listed.iter().any(|i| i.name == name)) =>
            {
                let names: Vec<&str> = listed.iter().map(|i| i.name).collect();
                Err(vec![FieldError::new(
                    "instance_type",
                    format!(
                        "must be one of the instances {} runs a managed {} on: {}",
                        cloud.label(),
                        self.database_type.label(),
                        names.join(", ")
                    ),
                )])
            }
            _ => Ok(()),
        }
    }

    /// The instance it runs on, when its cloud lists its instances.
    pub fn managed_instance(&self, cloud: Option<CloudProvider>) -> Option<ManagedInstance> {
        let listed = cloud?.managed_instances(self.database_type)?;
        let name = self.instance_type.as_deref()?;
        listed
            .iter()
            .copied()
            .find(|instance| instance.name == name)
    }
}

fn not_managed(cloud: &str) -> FieldError {
    FieldError::new(
        "mode",
        format!("{cloud} does not manage this type of database: run it in the cluster (CONTAINER)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> DatabaseRequest {
        serde_json::from_str(json).unwrap()
    }

    fn refused(request: &DatabaseRequest, cloud: Option<CloudProvider>) -> Vec<String> {
        request
            .validate_on(cloud)
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|error| error.field)
            .collect()
    }

    #[test]
    fn a_managed_database_runs_on_an_instance_its_cloud_lists_for_its_type() {
        let aws = Some(CloudProvider::Aws);
        let rds = request(
            r#"{"name": "db", "type": "POSTGRESQL", "version": "16", "mode": "MANAGED", "instance_type": "db.t3.medium"}"#,
        );
        assert_eq!(refused(&rds, aws), Vec::<String>::new());
        assert_eq!(
            rds.managed_instance(aws),
            Some(instance("db.t3.medium", 2000, 4096))
        );
        let cache_for_postgres = DatabaseRequest {
            instance_type: Some("cache.t3.micro".into()),
            ..rds.clone()
        };
        assert_eq!(refused(&cache_for_postgres, aws), ["instance_type"]);
        let without_instance = DatabaseRequest {
            instance_type: None,
            ..rds.clone()
        };
        assert_eq!(refused(&without_instance, aws), ["instance_type"]);
    }

    #[test]
    fn a_cloud_manages_only_its_types_and_sizes_them_as_it_does() {
        let provider_a = Some(CloudProvider::ProviderA);
        let redis =
            request(r#"{"name": "db", "type": "REDIS", "version": "7", "mode": "MANAGED"}"#);
        assert_eq!(refused(&redis, provider_a), ["mode"]);
        assert_eq!(refused(&redis, Some(CloudProvider::OnPremise)), ["mode"]);
        assert_eq!(refused(&redis, None), ["mode"]);
        let mysql =
            request(r#"{"name": "db", "type": "MYSQL", "version": "8.0", "mode": "MANAGED"}"#);
        assert_eq!(refused(&mysql, provider_a), Vec::<String>::new());
        let sized = DatabaseRequest {
            instance_type: Some("db.t3.small".into()),
            ..mysql
        };
        assert_eq!(refused(&sized, provider_a), ["instance_type"]);
    }

    #[test]
    fn a_database_in_the_cluster_has_no_instance_type() {
        let container = request(
            r#"{"name": "db", "type": "MYSQL", "version": "8.0", "mode": "CONTAINER", "instance_type": "db.t3.small"}"#,
        );
        assert_eq!(
            refused(&container, Some(CloudProvider::Aws)),
            ["instance_type"]
        );
        let plain = DatabaseRequest {
            instance_type: None,
            ..container
        };
        assert_eq!(refused(&plain, None), Vec::<String>::new());
    }
}
