export { request, apiUrl, configureClient, resetClient, type RequestOptions, type Method, type QueryValue } from './client';
export { ApiError, NetworkError, isApiError, isNetworkError } from './errors';
export { catalogueAction, describeData, type CatalogueAction, type CatalogueContext } from './catalogue';
export { onCatalogueAction, emitCatalogueAction } from './events';
