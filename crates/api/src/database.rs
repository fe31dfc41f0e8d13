//! Databases: managed by the cloud provider, or run as a container in the cluster.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::cloud::CloudProvider;
use crate::common::Reference;
use crate::defaults;
use crate::error::FieldError;
use crate::rules::{self, Violations};
use crate::service_type::ServiceType;
use crate::wire::WireEnum;

wire_enum!(
    DatabaseType {
        Postgresql = "POSTGRESQL" => "PostgreSQL",
        Mysql = "MYSQL" => "MySQL",
        Mongodb = "MONGODB" => "MongoDB",
        Redis = "REDIS" => "Redis",
    }
);

impl DatabaseType {
    /// The port a database of this type listens on; `None` for a type this version does not
    /// know.
    pub fn port(self) -> Option<u16> {
        match self {
            DatabaseType::Postgresql => Some(5432),
            DatabaseType::Mysql => Some(3306),
            DatabaseType::Mongodb => Some(27017),
            DatabaseType::Redis => Some(6379),
            DatabaseType::Other(_) => None,
        }
    }

    /// The versions a database of this type may run, oldest first.
    pub fn versions(self) -> &'static [&'static str] {
        match self {
            DatabaseType::Postgresql => &["13", "14", "15", "16", "17"],
            DatabaseType::Mysql => &["8.0", "8.4"],
            DatabaseType::Mongodb => &["6.0", "7.0", "8.0"],
            DatabaseType::Redis => &["6", "7"],
            DatabaseType::Other(_) => &[],
        }
    }
}

/// A version a database may run (`GET /database/{id}/version`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DatabaseVersion {
    pub name: String,
}

/// The types, versions and modes an environment's new databases may run
/// (`GET /environment/{id}/databaseConfiguration`): a version is listed once per mode it runs in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DatabaseConfiguration {
    #[serde(default)]
    pub database_type: Option<DatabaseType>,
    #[serde(default)]
    pub version: Vec<DatabaseVersionMode>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DatabaseVersionMode {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub supported_mode: Option<DatabaseMode>,
}

impl DatabaseConfiguration {
    /// What this platform runs on a cluster of `cloud`: every version of each type in the
    /// cluster, and managed for the types the cloud manages.
    pub fn on(cloud: Option<CloudProvider>) -> Vec<DatabaseConfiguration> {
        let managed = cloud.map_or(&[][..], CloudProvider::managed_database_types);
        DatabaseType::ALL
            .iter()
            .map(|&database_type| {
                let modes: &[DatabaseMode] = if managed.contains(&database_type) {
                    &[DatabaseMode::Container, DatabaseMode::Managed]
                } else {
                    &[DatabaseMode::Container]
                };
                DatabaseConfiguration {
                    database_type: Some(database_type),
                    version: database_type
                        .versions()
                        .iter()
                        .flat_map(|name| {
                            modes.iter().map(|&mode| DatabaseVersionMode {
                                name: name.to_string(),
                                supported_mode: Some(mode),
                            })
                        })
                        .collect(),
                }
            })
            .collect()
    }

    /// The versions listed for `database_type` in `mode`, in their order.
    pub fn versions_of(
        listed: &[DatabaseConfiguration],
        database_type: DatabaseType,
        mode: DatabaseMode,
    ) -> Vec<String> {
        listed
            .iter()
            .filter(|configuration| configuration.database_type == Some(database_type))
            .flat_map(|configuration| &configuration.version)
            .filter(|version| {
                version
                    .supported_mode
                    .is_none_or(|supported| supported == mode)
            })
            .map(|version| version.name.clone())
            .collect()
    }
}

/// A version's numbers, for comparing versions ("8.4" after "8.0", "16" after "9").
fn version_numbers(version: &str) -> Vec<u32> {
    version
        .split('.')
        .map(|part| part.parse().unwrap_or(0))
        .collect()
}

impl Database {
    /// The versions it may be changed to: its own and the newer ones of its type (a database's
    /// data is never taken back to an older version).
    pub fn eligible_versions(&self) -> Vec<&'static str> {
        let current = version_numbers(&self.version);
        self.database_type
            .versions()
            .iter()
            .copied()
            .filter(|version| version_numbers(version) >= current)
            .collect()
    }
}

/// The user a database is signed in as (its master credentials' `login`).
pub const DATABASE_LOGIN: &str = "superuser";

/// Where a service is reached inside its environment: `{name}.{first 8 of the environment's
/// id}.svc.cluster.local`.
pub fn internal_host(name: &str, environment_id: Uuid) -> String {
    let short = &environment_id.simple().to_string()[..8];
    format!("{name}.{short}.svc.cluster.local")
}

/// How to sign in to a database (`GET /database/{id}/masterCredentials`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Credentials {
    pub host: String,
    pub port: i64,
    pub login: String,
    pub password: String,
}

impl Credentials {
    /// The address a client connects with, password included: `postgresql://…`.
    pub fn connection_string(&self, database_type: DatabaseType) -> String {
        let scheme = match database_type {
            DatabaseType::Postgresql => "postgresql",
            DatabaseType::Mysql => "mysql",
            DatabaseType::Mongodb => "mongodb",
            DatabaseType::Redis => "redis",
            DatabaseType::Other(other) => other,
        };
        format!(
            "{scheme}://{}:{}@{}:{}",
            self.login, self.password, self.host, self.port
        )
    }
}

wire_enum!(
    DatabaseMode {
        Managed = "MANAGED" => "Managed by the cloud provider",
        Container = "CONTAINER" => "In the cluster (container)",
    }
);

wire_enum!(
    DatabaseAccessibility {
        Private = "PRIVATE" => "The environment only (private)",
        Public = "PUBLIC" => "The internet (public)",
    }
);

impl DatabaseAccessibility {
    /// A database made without saying is reachable from its environment alone.
    pub fn by_default() -> DatabaseAccessibility {
        DatabaseAccessibility::Private
    }
}

#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Database {
    pub id: Uuid,
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    #[serde(default, with = "crate::timestamp::option")]
    pub updated_at: Option<DateTime<Utc>>,
    pub environment: Reference,
    pub name: String,
    pub description: Option<String>,
    /// The platform requires one: the kind's own icon.
    #[serde(default)]
    pub icon_uri: String,
    pub service_type: ServiceType,
    #[serde(rename = "type")]
    pub database_type: DatabaseType,
    pub version: String,
    pub mode: DatabaseMode,
    #[serde(default = "DatabaseAccessibility::by_default")]
    pub accessibility: DatabaseAccessibility,
    /// The instance a managed database runs on, where its cloud lists them
    /// (`managed_database`): its cpu and memory are the instance's.
    #[serde(default)]
    pub instance_type: Option<String>,
    /// milli-CPU
    #[serde(default = "defaults::database_cpu")]
    pub cpu: i64,
    /// MiB
    #[serde(default = "defaults::database_memory")]
    pub memory: i64,
    /// GiB
    #[serde(default = "defaults::database_storage")]
    pub storage: i64,
}

/// Body of `POST /environment/{id}/database` and of its update.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DatabaseRequest {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(rename = "type")]
    pub database_type: DatabaseType,
    pub version: String,
    pub mode: DatabaseMode,
    #[serde(default = "DatabaseAccessibility::by_default")]
    pub accessibility: DatabaseAccessibility,
    /// Managed databases only, on a cloud that lists instances; `cpu` and `memory` are then
    /// the instance's.
    #[serde(default)]
    pub instance_type: Option<String>,
    #[serde(default = "defaults::database_cpu")]
    pub cpu: i64,
    #[serde(default = "defaults::database_memory")]
    pub memory: i64,
    #[serde(default = "defaults::database_storage")]
    pub storage: i64,
}

impl Database {
    /// The update that keeps the database as it is.
    pub fn to_request(&self) -> DatabaseRequest {
        DatabaseRequest {
            name: self.name.clone(),
            description: self.description.clone(),
            database_type: self.database_type,
            version: self.version.clone(),
            mode: self.mode,
            accessibility: self.accessibility,
            instance_type: self.instance_type.clone(),
            cpu: self.cpu,
            memory: self.memory,
            storage: self.storage,
        }
    }
}

impl DatabaseRequest {
    /// The rules of a change to `previous`: its version one of those it may go to.
    pub fn validate_change(&self, previous: &Database) -> Result<(), Vec<FieldError>> {
        let eligible = previous.eligible_versions();
        if self.version != previous.version && !eligible.contains(&self.version.as_str()) {
            return Err(vec![FieldError::new(
                "version",
                format!(
                    "may not go back from {}: one of {}",
                    previous.version,
                    eligible.join(", ")
                ),
            )]);
        }
        Ok(())
    }

    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut violations = Violations::default();
        violations.check(rules::name("name", &self.name));
        violations.check(rules::description(
            "description",
            self.description.as_deref(),
        ));
        let versions = self.database_type.versions();
        if !versions.contains(&self.version.as_str()) {
            violations.check(Some(FieldError::new(
                "version",
                format!(
                    "must be a version {} runs: {}",
                    self.database_type.label(),
                    versions.join(", ")
                ),
            )));
        }
        violations.check(rules::positive("cpu", self.cpu));
        violations.check(rules::positive("memory", self.memory));
        violations.check(rules::positive("storage", self.storage));
        violations.into_result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refused_fields;

    #[test]
    fn a_database_goes_only_to_its_version_or_newer() {
        let request: DatabaseRequest = serde_json::from_str(
            r#"{"name": "db", "type": "POSTGRESQL", "version": "15", "mode": "CONTAINER"}"#,
        )
        .unwrap();
        let database = Database {
            id: Uuid::nil(),
            created_at: Utc::now(),
            updated_at: None,
            environment: Reference { id: Uuid::nil() },
            name: "db".into(),
            description: None,
            icon_uri: String::new(),
            service_type: ServiceType::Database,
            database_type: DatabaseType::Postgresql,
            version: "15".into(),
            mode: DatabaseMode::Container,
            accessibility: DatabaseAccessibility::Private,
            instance_type: None,
            cpu: 250,
            memory: 256,
            storage: 10,
        };
        assert_eq!(database.eligible_versions(), ["15", "16", "17"]);
        assert!(request.validate_change(&database).is_ok());
        let newer = Database {
            version: "16".into(),
            ..database
        };
        let refused = request.validate_change(&newer).unwrap_err();
        assert_eq!(refused[0].field, "version");
        assert_eq!(refused[0].message, "may not go back from 16: one of 16, 17");
        // "8.4" is newer than "8.0", and "16" than "9", by their numbers.
        assert!(version_numbers("8.4") > version_numbers("8.0"));
        assert!(version_numbers("16") > version_numbers("9"));
    }

    #[test]
    fn versions_are_numbers_and_resources_positive() {
        let request: DatabaseRequest = serde_json::from_str(
            r#"{"name": "db", "type": "POSTGRESQL", "version": "16.x", "mode": "MANAGED", "storage": 0}"#,
        )
        .unwrap();
        let fields = refused_fields(request.validate());
        assert_eq!(fields, ["version", "storage"]);
        assert_eq!(request.accessibility, DatabaseAccessibility::Private);
        assert_eq!(request.cpu, 250);
    }
}
