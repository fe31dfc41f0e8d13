//! What a cloud runs as managed databases: the types it manages, and the instances it runs each
//! on where it lists them.

use platform_api::{
    managed_database_types_path, managed_instance_types_path, CloudProvider, DatabaseType, List,
    ManagedDatabaseInstanceType, ManagedDatabaseType,
};

use super::{Api, ApiError};

impl Api {
    /// The database types `cloud` manages: none for a cloud the platform lists none for.
    pub async fn managed_database_types(
        &self,
        cloud: CloudProvider,
    ) -> Result<Vec<DatabaseType>, ApiError> {
        let Some(path) = managed_database_types_path(cloud) else {
            return Ok(Vec::new());
        };
        let list: List<ManagedDatabaseType> = self.get(path.0).await?;
        Ok(list.results.into_iter().map(|listed| listed.name).collect())
    }

    /// The instances `cloud` runs a managed database of `database_type` on in `region`; `None`
    /// for a cloud that sizes its managed databases by cpu and memory.
    pub async fn managed_database_instance_types(
        &self,
        cloud: CloudProvider,
        region: &str,
        database_type: DatabaseType,
    ) -> Result<Option<Vec<String>>, ApiError> {
        let Some(path) = managed_instance_types_path(cloud) else {
            return Ok(None);
        };
        let path = path.with_texts(&[region, database_type.as_str()]);
        let list: List<ManagedDatabaseInstanceType> = self.get(&path).await?;
        Ok(Some(
            list.results.into_iter().map(|listed| listed.name).collect(),
        ))
    }
}
