use platform_api::paths;
use platform_api::AccountInfo;

use super::{Api, ApiError};

impl Api {
    /// Who is signed in.
    pub async fn account(&self) -> Result<AccountInfo, ApiError> {
        self.get(paths::ACCOUNT.0).await
    }
}
