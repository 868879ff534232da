import { errorResponse } from "@bytetoll/contracts";

export const adminErrors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 429: errorResponse };
