/** What the login form checks before it submits (docs/requirements.md §5), as one lazily loaded chunk. */
export { loginSchema } from '../../domain/userSchemas';
export { validate } from '../../domain/validate';
