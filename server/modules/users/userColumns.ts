/** The columns of a user as the API returns it, on users `u` joined to its parent `p`. */
export const USER_COLUMNS = `u.id, u.name, u.nickname, u.parent_id AS "parentId", p.name AS "parentName",
  u.permission_level AS "permissionLevel", u.department, u.sex, u.email, u.signature, u.company,
  u.user_type AS "userType", u.created_at AS "createdAt"`;
