use platform_api::Organization;

use super::{Api, ApiError};

impl Api {
    /// The organization of the signed-in token.
    pub async fn organization(&self) -> Result<Organization, ApiError> {
        self.get("/organization").await
    }
}
