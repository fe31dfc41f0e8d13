use platform_api::paths;
use platform_api::{Backup, BackupPage, BackupRequest};
use uuid::Uuid;

use super::{Api, ApiError};

fn backups_path(database: Uuid) -> String {
    paths::DATABASE_BACKUPS.at(&[database])
}

impl Api {
    /// The database's backups, newest first (the first page).
    pub async fn backups(&self, database: Uuid) -> Result<Vec<Backup>, ApiError> {
        let page: BackupPage = self.get(&backups_path(database)).await?;
        Ok(page.results)
    }

    /// Asks for a backup of the database: taken by the platform, listed meanwhile.
    pub async fn take_backup(
        &self,
        database: Uuid,
        request: &BackupRequest,
    ) -> Result<Backup, ApiError> {
        self.post(&backups_path(database), request).await
    }

    pub async fn delete_backup(&self, database: Uuid, backup: Uuid) -> Result<(), ApiError> {
        self.delete(&paths::DATABASE_BACKUP.at(&[database, backup]))
            .await
    }
}
