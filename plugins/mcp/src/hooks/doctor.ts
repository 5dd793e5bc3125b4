import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

// Placeholder, replaced by the mcp checks.
export default defineDoctorHook(async () => doctorReport([{id: 'mcp.stub', status: 'skip', title: 'mcp checks not written yet'}]))
