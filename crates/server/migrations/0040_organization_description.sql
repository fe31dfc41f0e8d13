-- What an organization is for, edited with its name (`PUT /organization/{id}`).
ALTER TABLE organizations ADD COLUMN description TEXT;
